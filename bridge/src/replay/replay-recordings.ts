/**
 * `ofkit replay` as a library: the records of one or more recordings become the state of one tenant
 * of any ofkit simulator, through its control API's snapshot import (PUT /_ofkit/snapshot/, all or
 * nothing, as the tenant of `key`). The same recordings give the same snapshot, so replaying twice
 * gives the same state.
 */
import { request } from 'undici';
import { basicAuthorization } from '../../../openapi/config/api-keys.js';
import { ConfigError } from '../../../openapi/config/config-error.js';
import type { BridgeDocument } from '../document/bridge-document.js';
import { basePathOf } from '../exchange/api-path.js';
import type { Exchange } from '../exchange/exchange.js';
import { readRecordings } from '../har/har-reader.js';
import { recordedState, recordingTenants } from './recorded-records.js';
import { type ReplaySnapshot, replaySnapshot } from './replay-snapshot.js';

/** A ConfigError: the command line's one boundary prints it on one line, exit code 2. */
export class ReplayError extends ConfigError {
  override name = 'ReplayError';
}

export interface ReplayPlan extends ReplaySnapshot {
  /** The recorded key whose records these are. */
  sourceKey: string;
  /** Records of collections no replay can store, seen and left out, by collection. */
  notReplayable: Map<string, number>;
}

export interface PlanOptions {
  document: BridgeDocument;
  files: readonly string[];
  /** The recorded key whose records to replay; needed when the recordings hold several. */
  sourceKey?: string;
  /** Freeze the replayed clock at the recording's last instant (default: it follows real time from there). */
  frozen?: boolean;
}

/** How many records a snapshot holds, all collections together. */
const recordTotal = (snapshot: ReplaySnapshot) =>
  [...snapshot.counts.values()].reduce((sum, n) => sum + n, 0);

/**
 * Reads the recordings and builds the snapshot to import; ReplayError when it cannot choose a key or
 * the recordings hold no record at all.
 */
export async function planReplay(options: PlanOptions): Promise<ReplayPlan> {
  const recordings = await readRecordings(options.files);
  const exchanges: Exchange[] = [];
  let basePath = '';
  for (const recording of recordings) {
    exchanges.push(...recording.exchanges);
    if (recording.upstream) basePath = basePathOf(recording.upstream);
  }
  const tenants = recordingTenants(options.document, exchanges, basePath);
  if (options.sourceKey !== undefined && !tenants.has(options.sourceKey))
    throw new ReplayError(
      `--source-key ${options.sourceKey} made no request with records in the recordings (keys: ${[...tenants].join(', ') || 'none'})`,
    );
  if (options.sourceKey === undefined && tenants.size > 1)
    throw new ReplayError(
      `the recordings hold the records of ${tenants.size} keys (${[...tenants].join(', ')}): choose one with --source-key`,
    );
  const sourceKey = options.sourceKey ?? [...tenants][0] ?? '(none)';
  const state = recordedState(
    options.document,
    exchanges,
    basePath,
    tenants.size > 0 ? sourceKey : undefined,
  );
  const now =
    state.lastAt && !Number.isNaN(Date.parse(state.lastAt))
      ? new Date(state.lastAt).toISOString()
      : new Date(0).toISOString();
  const plan = replaySnapshot(options.document, state, now, options.frozen ?? false);
  const notReplayable = new Map([...state.notReplayable].map(([collection, ids]) => [collection, ids.size]));
  // Nothing recorded to serve: an empty tenant would pass for the team's data.
  if (recordTotal(plan) === 0 && plan.rejected.length === 0 && notReplayable.size === 0)
    throw new ReplayError(
      `no record of the API in ${options.files.join(', ')} (entries read: ${exchanges.length}): nothing to replay`,
    );
  return { ...plan, sourceKey, notReplayable };
}

export interface TargetKey {
  secretId: string;
  secretPassword: string;
}

/** Imports the plan's snapshot into `key`'s tenant of the simulator at `target`; ReplayError on refusal. */
export async function importPlan(plan: ReplayPlan, target: string, key: TargetKey): Promise<void> {
  const authorization = basicAuthorization(key.secretId, key.secretPassword);
  let answer: Awaited<ReturnType<typeof request>>;
  try {
    answer = await request(`${target}/_ofkit/snapshot/`, {
      method: 'PUT',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(plan.snapshot),
    });
  } catch (error) {
    throw new ReplayError(
      `cannot reach ${target} (${(error as { code?: string }).code ?? (error as Error).message})`,
    );
  }
  const text = await answer.body.text();
  if (answer.statusCode === 204) return;
  if (answer.statusCode === 404 || answer.statusCode === 405)
    throw new ReplayError(
      `${target} has no control API (PUT /_ofkit/snapshot/ answered ${answer.statusCode}): replay needs an ofkit simulator`,
    );
  throw new ReplayError(`${target} refused the import (${answer.statusCode}): ${text.slice(0, 500)}`);
}

/** The lines that say what a replay did. */
export function describePlan(plan: ReplayPlan, where: string): string[] {
  const total = recordTotal(plan);
  const counts = [...plan.counts].map(([collection, n]) => `${collection} ${n}`).join(', ');
  const lines = [
    `replayed ${total} records of key ${plan.sourceKey} into ${where}${counts ? `: ${counts}` : ''}`,
  ];
  if (plan.rejected.length > 0) {
    lines.push(`left out: ${plan.rejected.length} records the document rejects:`);
    for (const { collection, id, reason } of plan.rejected.slice(0, 20))
      lines.push(`  ${collection}${id}: ${reason}`);
    if (plan.rejected.length > 20) lines.push(`  ... and ${plan.rejected.length - 20} more`);
  }
  if (plan.notReplayable.size > 0) {
    const seen = [...plan.notReplayable].map(([collection, n]) => `${collection} ${n}`).join(', ');
    lines.push(`not replayed: records of collections the simulator does not store: ${seen}`);
  }
  return lines;
}

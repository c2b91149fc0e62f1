/**
 * The data resources a rule can exercise on this target: those whose fixture institution registers a
 * link (`fixtures.<kind>` of the config), with that link and the target's today. What cannot be reached
 * becomes a note; prerequisites the document names (`x-prerequisite`) are retrieved first.
 */
import fc from 'fast-check';
import type { FixtureKind } from '../../target/target-config.js';
import { isSkip, type Skip, type SuiteContext, skip } from '../rule.js';
import { type DataResource, dataResources, documentNumber } from './data-resources.js';
import { listByLink } from './records.js';
import {
  makePrerequisite,
  type RangeChoice,
  retrievalBody,
  retrieveRecords,
  targetToday,
} from './retrieval.js';

export interface Reachable {
  resource: DataResource;
  link: string;
  today: number;
}

export interface ReachOptions {
  keep?: (resource: DataResource) => boolean;
  /** Register links of their own (rules that delete records leave the shared links alone). */
  fresh?: boolean;
}

async function linkOf(
  suite: SuiteContext,
  kind: FixtureKind,
  fresh: Map<FixtureKind, string | Skip> | undefined,
): Promise<string | Skip> {
  if (!fresh) return suite.fixtures.link(kind);
  const known = fresh.get(kind) ?? (await suite.fixtures.register(suite.config.fixtures[kind]));
  fresh.set(kind, known);
  return known;
}

/** The registrations the target refused while reaching resources (keyed by the list returned). */
const refusals = new WeakMap<Reachable[], Skip>();

/**
 * Why a rule with nothing reachable cannot run: the target's refusal of a registration (inconclusive,
 * with the hint to configure one), else `reason` (skipped).
 */
export const unreached = (reachable: Reachable[], reason: string): Skip =>
  refusals.get(reachable) ?? skip(reason);

/** Resources that pass `keep`, each with a live link of its fixture kind and the target's today. */
export async function reachableResources(
  suite: SuiteContext,
  note: (text: string) => void,
  options: ReachOptions = {},
): Promise<Reachable[]> {
  const all = dataResources(suite);
  const fresh = options.fresh ? new Map<FixtureKind, string | Skip>() : undefined;
  const todays = new Map<string, number>();
  const reachable: Reachable[] = [];
  for (const resource of all.filter(options.keep ?? (() => true))) {
    const link = await linkOf(suite, resource.kind, fresh);
    if (isSkip(link)) {
      note(`${resource.path} left out: no ${resource.kind} link (${link.skip})`);
      if (link.inconclusive && !refusals.has(reachable)) refusals.set(reachable, link);
      continue;
    }
    const today = todays.get(link) ?? (await targetToday(suite, link));
    todays.set(link, today);
    await makePrerequisite(suite, all, resource, link, today);
    reachable.push({ resource, link, today });
  }
  return reachable;
}

/** Largest day span generated for retrievals that have no `x-max-range-days` (keeps answers small). */
const DEFAULT_MAX_SPAN = 120;

/** Ranges a retrieval accepts: ending up to 60 days (1 year) ago, within `x-max-range-days`. */
export function acceptedRange(suite: SuiteContext, resource: DataResource): fc.Arbitrary<RangeChoice> {
  if (resource.range?.unit === 'year') {
    return fc.record({ back: fc.integer({ min: 0, max: 1 }), span: fc.integer({ min: 0, max: 2 }) });
  }
  const max = documentNumber(suite, resource.retrieve, 'x-max-range-days') ?? DEFAULT_MAX_SPAN;
  return fc.record({
    back: fc.integer({ min: 0, max: 60 }),
    span: fc.integer({ min: 0, max: Math.min(max, DEFAULT_MAX_SPAN) }),
  });
}

/** One value per required enum member of the retrieval body. */
export function enumChoice(resource: DataResource): fc.Arbitrary<Record<string, string>> {
  const members = resource.enums.map(([name, values]) => [name, fc.constantFrom(...values)] as const);
  return fc.record(Object.fromEntries(members));
}

/** The reachable resource of a path (inputs name resources by path: counterexamples stay readable). */
export function byPath<T extends Reachable>(reachable: T[], path: string): T {
  const found = reachable.find((entry) => entry.resource.path === path);
  if (!found) throw new Error(`No reachable data resource ${path}`);
  return found;
}

const WIDEST_SPAN = 730;

/** The widest range a retrieval accepts (`x-max-range-days`, else two years): where sparse records are. */
function widest(suite: SuiteContext, resource: DataResource): RangeChoice {
  if (resource.range?.unit === 'year') return { back: 0, span: 2 };
  const max = documentNumber(suite, resource.retrieve, 'x-max-range-days');
  return { back: 0, span: Math.min(max ?? WIDEST_SPAN, WIDEST_SPAN) };
}

/**
 * Retrieves records of the entry's resource: the default body first, then the widest range (yearly
 * records such as financial statements need a closed year). The records returned.
 */
export async function retrieveSome(run: SuiteContext, { resource, link, today }: Reachable) {
  const records = await retrieveRecords(run, resource, retrievalBody(resource, link, today));
  if (records.length > 0 || !resource.range) return records;
  return retrieveRecords(
    run,
    resource,
    retrievalBody(resource, link, today, { range: widest(run, resource) }),
  );
}

/** Retrieves for each resource whose list is empty, so that there are records to read. */
export async function seedEmpty(suite: SuiteContext, reachable: Reachable[], note: (text: string) => void) {
  for (const entry of reachable) {
    if ((await listByLink(suite.http, entry.resource.path, entry.link)).length > 0) continue;
    const records = await retrieveSome(suite, entry);
    if (records.length === 0) note(`${entry.resource.path}: no record retrieved; only unknown ids checked`);
  }
}

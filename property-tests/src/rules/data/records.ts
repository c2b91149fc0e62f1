/**
 * Reading and deleting stored records inside a run (recorded): a collection's list filtered by link, a
 * record's detail, and a DELETE that respects the operation's `x-rate-limit` (DELETE-RATE-LIMIT) by
 * moving the target's clock past the window through the control API where the target has one.
 */
import { isObject, type JsonObject } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import type { HttpResponse, HttpSession } from '../../http/http-client.js';
import { readAll } from '../cross-cutting/read-list.js';
import { type RunContext, unmet } from '../rule.js';

/** Every record of `path` for `link` (and a filter), read page by page. */
export function listByLink(
  http: HttpSession,
  path: string,
  link: string,
  filter: Record<string, string> = {},
): Promise<JsonObject[]> {
  return readAll(http, { operationId: path, path, base: { link }, headers: {} }, filter);
}

/** `P/{id}/` of a collection `P/`. */
export const itemUrl = (path: string, id: string) => `${path}${encodeURIComponent(id)}/`;

export const idOf = (record: JsonObject) => String(record.id);

/** The window of an operation's `x-rate-limit`, in seconds, or null. */
function rateWindow(operation: ApiOperation): number | null {
  const limit = operation.raw['x-rate-limit'];
  return isObject(limit) && typeof limit.window_seconds === 'number' ? limit.window_seconds : null;
}

/** Runs that could not delete (rate limited, no control API to move the clock): skipped, counted. */
export interface DeleteStats {
  rateLimited: number;
}

/**
 * DELETE `P/{id}/`. A 429 of a rate-limited deletion is DELETE-RATE-LIMIT working, not a failure of the
 * data rules: the clock moves past the window (control API) and the DELETE is sent again; without a
 * control API the run ends before the rule's assertion (unmet) and is counted.
 */
export async function deleteRecord(
  run: RunContext,
  operation: ApiOperation,
  url: string,
  stats: DeleteStats,
): Promise<HttpResponse> {
  const answer = await run.http.request({ method: 'DELETE', url });
  const window = rateWindow(operation);
  if (answer.status !== 429 || window === null) return answer;
  if (!run.capabilities.controlApi) {
    stats.rateLimited += 1;
    unmet(
      `DELETE ${url} was rate limited (429) and there is no control API to move the clock past its window`,
    );
  }
  await run.http.request({ method: 'POST', url: '/_ofkit/clock/advance/', json: { seconds: window + 1 } });
  return run.http.request({ method: 'DELETE', url });
}

export const rateLimitNote = (stats: DeleteStats) =>
  stats.rateLimited === 0
    ? []
    : [
        `${stats.rateLimited} runs ended early: a deletion was rate limited (429) and there is no control API`,
      ];

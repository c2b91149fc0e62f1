/**
 * DELETE-RATE-LIMIT as the other deletion rules meet it: the limit and window the document states
 * (`x-rate-limit`), and a synchronous link deletion that starts from an empty window, by moving the
 * control API clock past it, or, without a control API, by waiting it out once when a 429 comes.
 */
import { isObject } from '../../../../openapi/document/json.js';
import type { HttpResponse } from '../../http/http-client.js';
import type { RunContext, SuiteContext } from '../rule.js';
import { advanceClock, sleep } from './control-clock.js';
import { linkUrl } from './link-requests.js';

export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

/** The catalogue's numbers (DELETE-RATE-LIMIT), for a document that does not state `x-rate-limit`. */
const RULES_MD_LIMIT: RateLimit = { limit: 5, windowSeconds: 60 };

/** DELETE-RATE-LIMIT: the operation's `x-rate-limit` (limit per sliding window). */
export function rateLimitOf(suite: Pick<SuiteContext, 'document'>, operationId: string): RateLimit {
  const extension = suite.document.operation(operationId)?.raw['x-rate-limit'];
  if (!isObject(extension)) return RULES_MD_LIMIT;
  const { limit, window_seconds: windowSeconds } = extension;
  return typeof limit === 'number' && typeof windowSeconds === 'number'
    ? { limit, windowSeconds }
    : RULES_MD_LIMIT;
}

/** Moves the clock past the deletion window, so that earlier deletions no longer count. */
export async function passDeletionWindow(run: RunContext, operationId: string): Promise<void> {
  if (!run.capabilities.controlApi) return;
  await advanceClock(run.http, rateLimitOf(run, operationId).windowSeconds + 1);
}

/**
 * DELETE /api/links/{id}/ without the async header, from an empty window (LINK-DELETE-SYNC is about the
 * deletion, not about DELETE-RATE-LIMIT, which has its own rule).
 */
export async function deleteLinkSync(run: RunContext, id: string): Promise<HttpResponse> {
  await passDeletionWindow(run, 'deleteLink');
  const send = () => run.http.request({ method: 'DELETE', url: linkUrl(id) });
  const answer = await send();
  if (answer.status !== 429 || run.capabilities.controlApi) return answer;
  // No clock to move: wait the window out in real time, once.
  await sleep((rateLimitOf(run, 'deleteLink').windowSeconds + 1) * 1000);
  return send();
}

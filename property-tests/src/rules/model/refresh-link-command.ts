/**
 * RefreshLink: POST /api/links/{id}/refresh/ answers 202 with a `request_id` (LINK-REFRESH-202), or 409
 * naming the minutes left while the link's 10-minute cooldown runs (LINK-REFRESH-COOLDOWN). The refresh
 * is limited to OWNERS (LINK-REFRESH-202: `fetch_resources` in the body limits it), which the model does
 * not hold, so the link's accounts and transactions stay as the model has them.
 */
import type fc from 'fast-check';
import { isObject } from '../../../../openapi/document/json.js';
import type { HttpResponse } from '../../http/http-client.js';
import { describeAnswer, errorItems, expectStatus } from '../expect-response.js';
import { fail } from '../rule.js';
import { LINKS, type LinkModel, type ModelLink, pick } from './link-model.js';
import { type Moment, surelyPast, surelyWithin } from './model-clock.js';
import { type ModelTarget, tallyAnswer } from './model-target.js';

/** LINK-REFRESH-COOLDOWN: 10 minutes per link. */
export const COOLDOWN_MS = 600_000;
const REFRESHED = 'OWNERS';

const refreshable = (link: ModelLink) => link.offered.includes(REFRESHED);

/** What the model says of a refresh of `link` handled at `at`. */
function expectation(link: ModelLink, at: Moment): 'accepted' | 'cooldown' | 'either' {
  if (link.lastRefresh === null || surelyPast(link.lastRefresh, at, COOLDOWN_MS)) return 'accepted';
  return surelyWithin(link.lastRefresh, at, COOLDOWN_MS) ? 'cooldown' : 'either';
}

function describeLast(link: ModelLink, at: Moment): string {
  if (link.lastRefresh === null) return 'never refreshed before';
  const seconds = Math.round((at.earliest - link.lastRefresh.latest) / 1000);
  return `refreshed ${seconds} s before on the model's clock`;
}

function expectAccepted(answer: HttpResponse, what: string): void {
  expectStatus(answer, [202], `${what}: LINK-REFRESH-202`);
  if (!isObject(answer.json) || typeof answer.json.request_id !== 'string') {
    fail(`${what}: LINK-REFRESH-202: the 202 carries a \`request_id\`, got ${describeAnswer(answer)}`);
  }
}

function expectCooldown(answer: HttpResponse, what: string): void {
  expectStatus(answer, [409], `${what}: LINK-REFRESH-COOLDOWN`);
  const message = errorItems(answer)[0]?.message;
  if (typeof message !== 'string' || !/\d/.test(message)) {
    fail(
      `${what}: LINK-REFRESH-COOLDOWN: the 409 message names the minutes left, got ${describeAnswer(answer)}`,
    );
  }
}

export class RefreshLinkCommand implements fc.AsyncCommand<LinkModel, ModelTarget> {
  constructor(readonly linkIndex: number) {}

  check(model: LinkModel): boolean {
    return model.links.some(refreshable);
  }

  async run(model: LinkModel, target: ModelTarget): Promise<void> {
    const link = pick(model.links.filter(refreshable), this.linkIndex)!;
    const url = `${LINKS}${encodeURIComponent(link.id)}/refresh/`;
    const [answer, at] = await model.clock.around(() =>
      target.http.request({ method: 'POST', url, json: { fetch_resources: [REFRESHED] } }),
    );
    tallyAnswer(target, 'RefreshLink', answer.status);
    const expected = expectation(link, at);
    const what = `${this}: link ${link.id}, ${describeLast(link, at)}`;
    if (expected === 'accepted' || (expected === 'either' && answer.status !== 409)) {
      expectAccepted(answer, what);
      link.lastRefresh = at;
    } else {
      expectCooldown(answer, what);
    }
  }

  toString(): string {
    return `RefreshLink(link ${this.linkIndex})`;
  }
}

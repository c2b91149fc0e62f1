/**
 * LINK-REFRESH-202: a new link (its stored `fetch_resources` chosen at registration or left to the
 * institution) refreshed with no body, an empty body or a `fetch_resources` subset answers 202 with a
 * valid body carrying a `request_id`, and the link's stored `fetch_resources` stay as they were. Every
 * run refreshes a link of its own, so LINK-REFRESH-COOLDOWN never applies. The `historical_update` events
 * carrying the request id belong to the webhooks area.
 */
import fc from 'fast-check';
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import { describeAnswer, expectStatus } from '../expect-response.js';
import { defineRule, fail, isSkip, skip } from '../rule.js';
import { canonicalJson } from '../same-value.js';
import { expectDocumented, linkOf, linkUrl, readLink, registerLink } from './link-requests.js';

interface Input {
  /** `fetch_resources` sent at registration (null: the institution's). */
  stored: string[] | null;
  /** The refresh body: none at all, `{}`, or `{fetch_resources}`. */
  body: 'none' | 'empty' | string[];
}

/** The institution's resources: the `fetch_resources` of a link registered without choosing them. */
interface Fixture {
  resources: string[];
}

/** The refresh's body, or undefined to send none. */
function refreshBody(input: Input): JsonObject | undefined {
  if (input.body === 'none') return undefined;
  return input.body === 'empty' ? {} : { fetch_resources: input.body };
}

const asText = (value: JsonValue | undefined) => canonicalJson(value ?? null);

export const linkRefresh202 = defineRule<Input, Fixture>({
  id: 'LINK-REFRESH-202',
  area: 'links',
  operations: ['registerLink', 'getLink', 'refreshLink'],
  runs: 10,
  async prepare(suite, note) {
    note('`historical_update` events carrying the request id are checked by the webhooks area');
    const link = await suite.fixtures.link('link');
    if (isSkip(link)) return skip(`no link to learn the institution's resources from: ${link.skip}`);
    const detail = await readLink(suite.http, link);
    const resources = isObject(detail.json) ? detail.json.fetch_resources : undefined;
    if (!Array.isArray(resources) || resources.length === 0) {
      return skip(`GET ${linkUrl(link)} shows no fetch_resources: ${describeAnswer(detail)}`);
    }
    return { resources: resources.map(String) };
  },
  arbitrary: (_, { resources }) => {
    const subset = fc.subarray(resources, { minLength: 1 });
    return fc.record({
      stored: fc.option(subset, { nil: null }),
      body: fc.oneof(fc.constantFrom<'none' | 'empty'>('none', 'empty'), subset),
    });
  },
  examples: (_, { resources }) => [
    // A refresh asking for more than the link stores: the stored list must not grow.
    { stored: resources.slice(0, 1), body: resources },
    { stored: null, body: resources.slice(-1) },
    { stored: null, body: 'none' },
  ],
  async check(input, run) {
    const link = await registerLink(
      run,
      run.config.fixtures.link,
      input.stored ? { fetch_resources: input.stored } : {},
    );
    const json = refreshBody(input);
    const url = linkUrl(link.id, 'refresh/');
    const answer = await run.http.request({ method: 'POST', url, ...(json ? { json } : {}) });
    const what = `POST ${url} with ${json ? JSON.stringify(json) : 'no body'}`;
    expectStatus(answer, [202], what);
    expectDocumented(run, answer, 'refreshLink', what);
    const body = answer.json;
    if (!isObject(body) || typeof body.request_id !== 'string' || body.request_id === '') {
      fail(`${what}: wanted a request_id in the body, got ${describeAnswer(answer)}`);
    }
    const detail = await readLink(run.http, link.id);
    expectStatus(detail, [200], `GET ${linkUrl(link.id)} after the refresh`);
    const after = linkOf(detail, `GET ${linkUrl(link.id)}`).fetch_resources;
    if (asText(after) !== asText(link.fetch_resources)) {
      fail(
        `${what} changed the stored fetch_resources from ${asText(link.fetch_resources)} to ${asText(after)}`,
      );
    }
  },
});

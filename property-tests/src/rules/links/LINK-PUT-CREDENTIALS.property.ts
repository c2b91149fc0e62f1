/**
 * LINK-PUT-CREDENTIALS: PUT /api/links/{id}/ with the fixture's credentials (the members
 * LinkCredentialsRequest knows) answers 200 with a valid link whose status is `valid`, and the detail
 * says so too. With the control API the link is first broken: the scenario `next_refresh_invalid_credentials`
 * (or `next_refresh_token_required`) and POST /_ofkit/daily-refresh/ make a recurrent link `invalid` (or
 * `token_required`), then the PUT brings it back. Without a control API only valid links are updated.
 * The `historical_update` events of a recurrent link belong to the webhooks area.
 */
import fc from 'fast-check';
import { isObject, type JsonObject } from '../../../../openapi/document/json.js';
import type { FixtureKind } from '../../target/target-config.js';
import { describeAnswer, expectStatus } from '../expect-response.js';
import { defineRule, fail, type RunContext, type SuiteContext, skip } from '../rule.js';
import {
  expectDocumented,
  linkOf,
  linkStatus,
  linkUrl,
  registerLink,
  registrationKinds,
} from './link-requests.js';

type LinkState = 'valid' | 'invalid' | 'token_required';

interface Input {
  kind: FixtureKind;
  /** The link's status before the PUT. */
  state: LinkState;
  accessMode: 'single' | 'recurrent';
}

const SCENARIOS = '/_ofkit/scenarios/';
const DAILY_REFRESH = '/_ofkit/daily-refresh/';
/** admin.yaml's scenario switches that make the next daily refresh of a link fail (LINK-INVALID-CREDENTIALS, LINK-TOKEN-REQUIRED). */
const BREAKING_SCENARIO = {
  invalid: 'next_refresh_invalid_credentials',
  token_required: 'next_refresh_token_required',
} as const;

/** The fixture kinds whose registration has a password (LinkCredentialsRequest requires one). */
const kindsWithPassword = (suite: SuiteContext) =>
  registrationKinds(suite).filter((kind) => typeof suite.config.fixtures[kind].password === 'string');

/** The PUT body: the registration's members that LinkCredentialsRequest knows (and the MFA token for a token_required link). */
function credentials(run: RunContext, input: Input): JsonObject {
  const schema = run.document.resolve(run.document.operation('updateLinkCredentials')?.body?.schema);
  const known =
    isObject(schema) && isObject(schema.properties) ? Object.keys(schema.properties) : ['password'];
  const registration = run.config.fixtures[input.kind];
  const body: JsonObject = Object.fromEntries(
    Object.entries(registration).filter(([name]) => known.includes(name)),
  );
  if (input.state === 'token_required' && known.includes('token')) body.token = run.config.fixtures.mfa.token;
  return body;
}

/** Makes the link `invalid` or `token_required` through the control API, and checks that it is. */
async function breakLink(run: RunContext, id: string, state: Exclude<LinkState, 'valid'>): Promise<void> {
  const scenario = { scenario: BREAKING_SCENARIO[state], link: id, count: 1 };
  const switched = await run.http.request({ method: 'POST', url: SCENARIOS, json: scenario });
  if (switched.status !== 201)
    fail(`control API: POST ${SCENARIOS} ${JSON.stringify(scenario)} answered ${describeAnswer(switched)}`);
  const refreshed = await run.http.request({ method: 'POST', url: DAILY_REFRESH });
  if (refreshed.status !== 202)
    fail(`control API: POST ${DAILY_REFRESH} answered ${describeAnswer(refreshed)}`);
  const status = await linkStatus(run, id);
  if (status !== state) {
    fail(
      `after ${scenario.scenario} and the daily refresh the link's status is ${JSON.stringify(status)}, not ${state}`,
    );
  }
}

export const linkPutCredentials = defineRule<Input, { control: boolean; kinds: FixtureKind[] }>({
  id: 'LINK-PUT-CREDENTIALS',
  area: 'links',
  operations: ['registerLink', 'getLink', 'updateLinkCredentials'],
  tenantWide: 'switches',
  runs: 8,
  async prepare(suite, note) {
    const kinds = kindsWithPassword(suite);
    if (kinds.length === 0) return skip('no fixture registration has a password to PUT');
    const control = suite.capabilities.controlApi;
    if (!control)
      note('no control API: links cannot be made invalid or token_required, so only valid links are updated');
    note('`historical_update` after the PUT is checked by the webhooks area');
    return { control, kinds };
  },
  arbitrary: (_, { control, kinds }) =>
    fc.record({
      kind: fc.constantFrom(...kinds),
      state: control
        ? fc.constantFrom<LinkState>('invalid', 'token_required', 'valid')
        : fc.constant<LinkState>('valid'),
      accessMode: fc.constantFrom<Input['accessMode']>('recurrent', 'single'),
    }),
  examples: (_, { control, kinds }) =>
    (control ? (['invalid', 'token_required'] as const) : (['valid'] as const)).map(
      (state): Input => ({ kind: kinds[0]!, state, accessMode: 'recurrent' }),
    ),
  async check(input, run) {
    // Only recurrent links are refreshed daily, so only they can be broken by a daily refresh.
    const accessMode = input.state === 'valid' ? input.accessMode : 'recurrent';
    const link = await registerLink(run, run.config.fixtures[input.kind], { access_mode: accessMode });
    if (input.state !== 'valid') await breakLink(run, link.id, input.state);
    const what = `PUT ${linkUrl(link.id)} with the fixture's credentials on a ${input.state} ${accessMode} link`;
    const answer = await run.http.request({
      method: 'PUT',
      url: linkUrl(link.id),
      json: credentials(run, input),
    });
    expectStatus(answer, [200], what);
    expectDocumented(run, answer, 'updateLinkCredentials', what);
    const status = linkOf(answer, what).status;
    if (status !== 'valid') fail(`${what}: the answer's status is ${JSON.stringify(status)}, not valid`);
    const stored = await linkStatus(run, link.id);
    if (stored !== 'valid')
      fail(`after ${what}, GET ${linkUrl(link.id)} says status ${JSON.stringify(stored)}, not valid`);
  },
});

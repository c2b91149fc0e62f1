/**
 * LINK-REGISTER: each fixture registration (with or without `access_mode` and `external_id`) answers
 * 201 with a valid link that GET /api/links/{id}/ then serves; a retrieval for a link that was never
 * registered (the document's example body, its `link` an unknown uuid) gets 400 or 404 with the error
 * array (where the run has a retrieval: a target of links alone is checked on its registrations).
 */
import fc from 'fast-check';
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import { registrationHint } from '../../target/registrations.js';
import type { FixtureKind } from '../../target/target-config.js';
import { expectErrorArray, expectStatus } from '../expect-response.js';
import { defineRule, fail, notSetUp, type RunContext, type SuiteContext } from '../rule.js';
import { requiredHeaders } from '../seed-collection.js';
import {
  kindArbitrary,
  linkOf,
  linkUrl,
  readLink,
  registerLink,
  registrationKinds,
} from './link-requests.js';

interface Input {
  kind: FixtureKind;
  accessMode: 'single' | 'recurrent' | null;
  externalId: string | null;
  /** A retrieval's operationId, sent for `unknownLink`. */
  retrieval: string | null;
  unknownLink: string;
}

/** POST retrievals on a collection whose body requires `link`. */
function retrievals(suite: SuiteContext): ApiOperation[] {
  return suite.operations.filter((op) => {
    const retrieval = op.method === 'POST' && op.body && !op.path.includes('{');
    const schema = retrieval ? suite.document.resolve(op.body?.schema) : undefined;
    return isObject(schema) && Array.isArray(schema.required) && schema.required.includes('link');
  });
}

/** A retrieval's operationId to send for an unknown link (null: the run has none). */
function retrievalIds(suite: SuiteContext): fc.Arbitrary<string | null> {
  const ids = retrievals(suite).map((op) => op.operationId);
  return ids.length === 0 ? fc.constant(null) : fc.constantFrom(...ids);
}

/** The operation's example with its required members only and `link` replaced. */
function retrievalBody(suite: SuiteContext, operation: ApiOperation, link: string): JsonObject {
  const schema = suite.document.resolve(operation.body?.schema);
  const required = isObject(schema) && Array.isArray(schema.required) ? schema.required : [];
  const example: JsonValue = operation.body?.example ?? {};
  const members = isObject(example) ? Object.entries(example) : [];
  return { ...Object.fromEntries(members.filter(([name]) => required.includes(name))), link };
}

/** The 201, the members the registration chose, and the detail that serves the new link. */
async function checkRegistered(input: Input, run: RunContext): Promise<void> {
  const registration = run.config.fixtures[input.kind];
  const extra: JsonObject = {
    ...(input.accessMode ? { access_mode: input.accessMode } : {}),
    ...(input.externalId ? { external_id: input.externalId } : {}),
  };
  const link = await registerLink(run, registration, extra);
  // LinkRegistrationRequest: `access_mode` defaults to single; `external_id` is null when not given.
  const expected = {
    institution: registration.institution,
    access_mode: input.accessMode ?? 'single',
    external_id: input.externalId,
  };
  for (const [member, value] of Object.entries(expected)) {
    if (link[member] !== value) {
      fail(`the registered link has ${member} ${JSON.stringify(link[member])}, not ${JSON.stringify(value)}`);
    }
  }
  const detail = await readLink(run.http, link.id);
  const what = `GET ${linkUrl(link.id)} right after the 201`;
  expectStatus(detail, [200], what);
  if (linkOf(detail, what).id !== link.id) fail(`${what} serves another link`);
}

/** A retrieval for a link that does not exist: 400 or 404 with the error array. */
async function checkUnknownLink(input: Input, run: RunContext): Promise<void> {
  if (input.retrieval === null) return;
  const operation = run.document.operation(input.retrieval)!;
  const answer = await run.http.request({
    method: 'POST',
    url: operation.path,
    json: retrievalBody(run, operation, input.unknownLink),
    headers: requiredHeaders(run, operation),
  });
  const what = `POST ${operation.path} for a link never registered (${input.unknownLink})`;
  expectStatus(answer, [400, 404], what);
  expectErrorArray(run.document, answer, what);
}

export const linkRegister = defineRule<Input>({
  id: 'LINK-REGISTER',
  area: 'links',
  operations: ['registerLink', 'getLink'],
  runs: 10,
  async prepare(suite, note) {
    if (registrationKinds(suite).length === 0)
      return notSetUp(`no registration: ${registrationHint('link')}`);
    if (retrievals(suite).length === 0) note('no data retrieval in the run: unknown links not tried');
    return undefined;
  },
  arbitrary: (suite) =>
    fc.record({
      kind: kindArbitrary(registrationKinds(suite)),
      accessMode: fc.constantFrom<Input['accessMode']>(null, 'single', 'recurrent'),
      externalId: fc.option(fc.stringMatching(/^[a-z0-9-]{1,24}$/), { nil: null }),
      retrieval: retrievalIds(suite),
      unknownLink: fc.uuid({ version: 4 }),
    }),
  // Every retrieval once (each shows its answer to an unknown link), the fixture kinds in turn.
  examples: (suite) => {
    const kinds = registrationKinds(suite);
    const ids = retrievals(suite).map((operation) => operation.operationId);
    return (ids.length > 0 ? ids : [null]).map((retrieval, index) => ({
      kind: kinds[index % kinds.length]!,
      accessMode: null,
      externalId: null,
      retrieval,
      unknownLink: '00000000-0000-4000-8000-000000000000',
    }));
  },
  async check(input, run) {
    await checkRegistered(input, run);
    await checkUnknownLink(input, run);
  },
});

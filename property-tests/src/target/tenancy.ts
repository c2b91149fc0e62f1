/**
 * Nothing lost by checking. With the control API the suite resets the tenant (POST /_ofkit/reset/:
 * links, records, events, scenarios and faults go) only when the tenant holds nothing the run did not
 * create, or when told to (`--reset`). A tenant that holds state (a team's long-lived simulator) is left
 * as it is, its clock, scenarios, faults and webhook receiver too: the run says so in one line, and the
 * rules that need the control API, which changes the whole tenant, are inconclusive. A tenant the run
 * owns may be reset again between rules (the runner does so before a rule that moves the clock).
 */
import { isObject } from '../../../openapi/document/json.js';
import type { HttpSession } from '../http/http-client.js';

/** `always` (--reset), `if-empty` (the default), `never` (the config's `resetBeforeRun: false`). */
export type ResetPolicy = 'always' | 'if-empty' | 'never';

export interface Tenancy {
  /** The run may change the whole tenant (clock, scenarios, faults, webhook receiver). */
  owned: boolean;
  /** The run may reset the tenant between rules (it owns it, and resets are allowed). */
  resettable: boolean;
  /** What the run did with the tenant, in one line. */
  note: string;
}

const RESET = '/_ofkit/reset/';

/** How many records a list holds (its page's `count`), 0 when it cannot be read. */
async function countOf(http: HttpSession, url: string): Promise<number> {
  const answer = await http.request({ method: 'GET', url, query: { page_size: '1' } });
  return answer.status === 200 && isObject(answer.json) && typeof answer.json.count === 'number'
    ? answer.json.count
    : 0;
}

/** What the tenant holds that this run did not create, in words (empty: nothing). */
export async function heldState(http: HttpSession): Promise<string[]> {
  const counts: [string, number][] = [
    ['links', await countOf(http, '/api/links/')],
    ['payment customers', await countOf(http, '/payments/br/customers/')],
    ['bank accounts', await countOf(http, '/payments/br/bank-accounts/')],
  ];
  const held = counts.filter(([, n]) => n > 0).map(([what, n]) => `${n} ${what}`);
  if (held.length > 0) return held;
  const events = await http.request({ method: 'GET', url: '/_ofkit/events/' });
  const logged = Array.isArray(events.json) ? events.json.length : 0;
  return logged > 0 ? [`${logged} logged events`] : [];
}

/** Resets the tenant when the policy allows; what the run may do with it afterwards. */
export async function claimTenant(http: HttpSession, policy: ResetPolicy): Promise<Tenancy> {
  const held = await heldState(http);
  const holds = held.join(', ');
  if (policy === 'always') {
    await http.request({ method: 'POST', url: RESET });
    const lost = held.length > 0 ? `: its ${holds} were forgotten` : '';
    return { owned: true, resettable: true, note: `the tenant was reset before the run (--reset)${lost}` };
  }
  if (held.length > 0) {
    return {
      owned: false,
      resettable: false,
      note: `the tenant holds ${holds} this run did not create: not reset, and its clock, scenarios, faults and webhook receiver left alone (the rules that need them are inconclusive); --reset resets it first, or give the key of a tenant of its own`,
    };
  }
  if (policy === 'never')
    return {
      owned: true,
      resettable: false,
      note: 'the tenant holds nothing: not reset (resetBeforeRun: false)',
    };
  await http.request({ method: 'POST', url: RESET });
  return { owned: true, resettable: true, note: 'the tenant held nothing: reset before the run' };
}

/** The requests of the benchmark: three API calls the same for every server, and the adapter's constant answer. */
import { BASIC_AUTH, LINK_BODY, LINKS, TRANSACTIONS } from '../servers/seed-data.js';

export type ScenarioId = 'list-transactions-100' | 'get-link' | 'post-link' | 'constant-body';

export interface Scenario {
  id: ScenarioId;
  method: 'GET' | 'POST';
  /** Path and query. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The scenario the targets are about. */
export const TARGET_SCENARIO: ScenarioId = 'list-transactions-100';

export function buildScenarios(linkId: string): Scenario[] {
  const auth = { authorization: BASIC_AUTH };
  return [
    {
      id: 'list-transactions-100',
      method: 'GET',
      path: `${TRANSACTIONS}?link=${linkId}&page_size=100`,
      headers: auth,
    },
    { id: 'get-link', method: 'GET', path: `${LINKS}${linkId}/`, headers: auth },
    {
      id: 'post-link',
      method: 'POST',
      path: LINKS,
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(LINK_BODY),
    },
  ];
}

/** The path without its query string (what the bare server routes on). */
export function pathOf(scenario: Scenario): string {
  return scenario.path.split('?', 1)[0] ?? scenario.path;
}

/** Any GET the adapter alone answers with its constant body (bare serves the same bytes there). */
export const CONSTANT_SCENARIO: Scenario = {
  id: 'constant-body',
  method: 'GET',
  path: '/bench/constant',
  headers: {},
};

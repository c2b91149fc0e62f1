/**
 * AUTH-BASIC, API-ROOT and AUTH-TENANT as passing traffic shows them: a request without Basic
 * credentials let in; two different secrets of one key id both let in (one of them is wrong); a
 * record first served to one key served to another.
 */
import { type ExchangeView, isSuccess, NO_CREDENTIALS, recordsOf } from '../exchange-view.js';
import type { Finding } from '../finding.js';
import { collectionOf, recordIdOf, ruleFinding, type SessionCheck } from '../session-check.js';

/** Catalogues every key reads alike: their records belong to no tenant. */
const SHARED_COLLECTIONS = new Set(['/api/', '/api/institutions/', '/payments/br/institutions/']);

export function createAuthenticationCheck(): SessionCheck {
  /** Key id -> the secrets it was let in with. */
  const acceptedSecrets = new Map<string, Set<string>>();
  /** Record id -> the key that first read it. */
  const owners = new Map<string, string>();
  const reported = new Set<string>();
  function credentials(view: ExchangeView): Finding[] {
    if (view.status === 401) return [];
    if (view.key === undefined) {
      // API-ROOT: GET /api/ answers 200 to valid credentials and 401 otherwise; AUTH-BASIC elsewhere.
      const rule = view.operation?.operationId === 'getApiRoot' ? 'API-ROOT' : 'AUTH-BASIC';
      return [
        ruleFinding(view, rule, `answered ${view.status} to a request without Basic credentials, not 401`),
      ];
    }
    if (!isSuccess(view)) return [];
    const secrets = acceptedSecrets.get(view.key.id) ?? new Set<string>();
    secrets.add(view.key.secret);
    acceptedSecrets.set(view.key.id, secrets);
    if (secrets.size < 2 || reported.has(`basic ${view.key.id}`)) return [];
    reported.add(`basic ${view.key.id}`);
    return [
      ruleFinding(
        view,
        'AUTH-BASIC',
        `key ${view.key.id} was let in with ${secrets.size} different secrets: at most one is right`,
      ),
    ];
  }
  function tenancy(view: ExchangeView): Finding[] {
    const collection = collectionOf(view);
    if (
      !isSuccess(view) ||
      view.tenant === NO_CREDENTIALS ||
      collection === undefined ||
      SHARED_COLLECTIONS.has(collection)
    )
      return [];
    const findings: Finding[] = [];
    for (const record of recordsOf(view)) {
      const id = recordIdOf(record);
      if (id === undefined) continue;
      const owner = owners.get(id);
      if (owner === undefined) owners.set(id, view.tenant);
      else if (owner !== view.tenant && !reported.has(`tenant ${id} ${view.tenant}`)) {
        reported.add(`tenant ${id} ${view.tenant}`);
        findings.push(
          ruleFinding(view, 'AUTH-TENANT', `record ${id} of key ${owner} was served to key ${view.tenant}`, {
            sample: id,
          }),
        );
      }
    }
    return findings;
  }
  return {
    observe(view) {
      if (view.control || !view.operation || view.exchange.upstreamFailure) return [];
      return [...credentials(view), ...tenancy(view)];
    },
  };
}

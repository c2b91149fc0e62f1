/**
 * Before any rule runs, the configured keys must be accepted (GET /api/ answers 200, API-ROOT): rules
 * run with refused keys see nothing but 401 and their verdicts mean nothing. The second key
 * is checked too: the isolation rules (AUTH-TENANT) and API-ROOT use it.
 */
import type { HttpClient } from '../http/http-client.js';
import type { TargetConfig } from './target-config.js';

const ROOT = '/api/';

/** How a person passes keys, named in the refusal. */
export const HOW_TO_PASS_KEYS =
  'pass keys with --keys id:secret (twice for a second key), $OFKIT_KEY and $OFKIT_SECRET, or `keys` in the --config file';

/** One line naming the refused key, or undefined when every configured key is accepted. */
export async function refusedKey(
  client: HttpClient,
  config: Pick<TargetConfig, 'keys'>,
): Promise<string | undefined> {
  const keys = [
    ['primary', config.keys.primary],
    ['second', config.keys.second],
  ] as const;
  for (const [name, key] of keys) {
    if (key === null) continue;
    const answer = await client.session().request({ method: 'GET', url: ROOT, auth: name });
    if (answer.status !== 200) {
      return `the target refused the ${name} key "${key.id}" (GET ${ROOT} answered ${answer.status}, wanted 200): ${HOW_TO_PASS_KEYS}`;
    }
  }
  return undefined;
}

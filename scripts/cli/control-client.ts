/**
 * What the sandbox commands (`ofkit trigger`, `ofkit link-status`, `ofkit create-link`) share: the
 * running simulator's address and key from the command line or the environment, and one call of its
 * control API. Their calls carry the observer marker the dashboard's carry, so the client judge never
 * takes them for the client's.
 */
import { basicAuthorization } from '../../openapi/config/api-keys.js';
import { DEFAULT_KEYS } from '../../simulator/src/config/simulator-config.js';
import { ConfigError, environmentKey, parseBaseUrl, parseKey } from './command-line.js';

/** The documented address of `ofkit simulate`, when neither --url nor $OFKIT_URL says another. */
export const DEFAULT_URL = 'http://127.0.0.1:4010';
/** The header and value the judge's observer skips (the dashboard sends the same). */
export const OBSERVER_HEADER = { 'x-ofkit-client': 'dashboard' } as const;

export const TARGET_OPTIONS = `  --url URL            the simulator (default $OFKIT_URL, else ${DEFAULT_URL})
  --keys id:secret     the tenant's key (default $OFKIT_KEY and $OFKIT_SECRET, else ofkit-key-a)
  --json               print the control API's answer as JSON instead of a summary`;

export interface Target {
  url: string;
  authorization: string;
}

/** The simulator and key to act on: the flags, then `ofkit exec`'s variables, then the defaults. */
export function readTarget(
  values: { url?: string | undefined; keys?: string | undefined },
  env: NodeJS.ProcessEnv,
): Target {
  const url = parseBaseUrl(values.url ?? env.OFKIT_URL ?? DEFAULT_URL, 'simulator URL (--url)');
  const text = values.keys ?? environmentKey(env, 'pass --keys id:secret or set both');
  const key = text === undefined ? DEFAULT_KEYS[0]! : parseKey(text);
  return { url, authorization: basicAuthorization(key.secretId, key.secretPassword) };
}

export interface ControlAnswer {
  status: number;
  body: unknown;
}

/** The API's error array as one line: `404 not_found: No link ...`. */
export function errorLine(answer: ControlAnswer): string {
  const items = Array.isArray(answer.body) ? (answer.body as { code?: string; message?: string }[]) : [];
  const said = items.map((item) => `${item.code}: ${item.message}`).join('; ');
  return `${answer.status} ${said || 'without an error body'}`;
}

/** One control API call; a simulator that does not answer, or refuses the key, is a one-line failure. */
export async function callControl(target: Target, method: string, path: string, body?: unknown) {
  let response: Response;
  try {
    response = await fetch(`${target.url}${path}`, {
      method,
      headers: {
        ...OBSERVER_HEADER,
        authorization: target.authorization,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    const { cause } = error as { cause?: { code?: string; message?: string } };
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new ConfigError(`nothing answers at ${target.url} (${why}); start it with ofkit simulate`);
  }
  const text = await response.text();
  const answer: ControlAnswer = { status: response.status, body: text ? safeJson(text) : undefined };
  if (response.status === 401) throw new ConfigError(`the key was refused: ${errorLine(answer)}`);
  return answer;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A refused request (4xx/5xx) as the command's one-line failure. */
export function refusedBy(answer: ControlAnswer): never {
  throw new ConfigError(errorLine(answer));
}

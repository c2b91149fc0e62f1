/**
 * Whether the implementation answers at all, through the same client the proxy uses (its CA store,
 * its egress proxy): any HTTP answer to GET <upstream>/api/ will do (401 included: the proxy holds no
 * key). Undefined when it answers, else the one-line reason.
 */
import { createUpstreamClient } from './upstream-client.js';
import { upstreamFailureOf } from './upstream-failure.js';
import type { UpstreamClient } from './upstream-request.js';

export async function unreachableUpstream(
  upstream: string,
  client: UpstreamClient,
  timeoutSeconds: number,
): Promise<string | undefined> {
  try {
    const answer = await client.send({
      method: 'GET',
      url: `${upstream}/api/`,
      headers: {},
      timeoutMs: timeoutSeconds * 1000,
    });
    for (let next = await answer.body.next(); !next.done; next = await answer.body.next());
    return undefined;
  } catch (error) {
    return upstreamFailureOf(error, upstream).failure.message;
  }
}

/** The same probe with a client of its own (the CA store and egress proxy `env` names). */
export async function probeUpstream(
  upstream: string,
  timeoutSeconds: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  const client = await createUpstreamClient({ env });
  try {
    return await unreachableUpstream(upstream, client, timeoutSeconds);
  } finally {
    await client.close();
  }
}

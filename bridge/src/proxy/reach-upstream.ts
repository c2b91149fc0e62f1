/**
 * Whether the implementation answers at all, through the same dispatcher the proxy uses (its CA store,
 * its egress proxy): any HTTP answer to GET <upstream>/api/ will do (401 included: the proxy holds no
 * key). Undefined when it answers, else the one-line reason.
 */
import { type Dispatcher, request } from 'undici';
import { upstreamFailureOf } from './upstream-failure.js';

export async function unreachableUpstream(
  upstream: string,
  dispatcher: Dispatcher,
  timeoutSeconds: number,
): Promise<string | undefined> {
  try {
    const answer = await request(`${upstream}/api/`, {
      dispatcher,
      headersTimeout: timeoutSeconds * 1000,
      bodyTimeout: timeoutSeconds * 1000,
    });
    await answer.body.dump();
    return undefined;
  } catch (error) {
    return upstreamFailureOf(error, upstream).failure.message;
  }
}

/** The same probe with a dispatcher of its own (the CA store and egress proxy `env` names). */
export async function probeUpstream(
  upstream: string,
  timeoutSeconds: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  const { createUpstreamDispatcher } = await import('./upstream-dispatcher.js');
  const { dispatcher } = createUpstreamDispatcher({ env });
  try {
    return await unreachableUpstream(upstream, dispatcher, timeoutSeconds);
  } finally {
    await dispatcher.close();
  }
}

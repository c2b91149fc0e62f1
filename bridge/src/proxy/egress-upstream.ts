/**
 * The implementation reached through the egress proxy the environment names, with undici's
 * `EnvHttpProxyAgent` (a CONNECT tunnel for HTTPS, the proxy's own requests for HTTP, the hosts of
 * `NO_PROXY` reached directly), trusting the same certificates as a direct connection.
 */
import { type Dispatcher, EnvHttpProxyAgent, request as undiciRequest } from 'undici';
import type { HeaderList } from '../exchange/exchange.js';
import type { UpstreamClient } from './upstream-request.js';

/** An answer's headers as a list (a repeated header, set-cookie, repeated). */
function headerList(headers: Dispatcher.ResponseData['headers']): HeaderList {
  return Object.entries(headers).flatMap(([name, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((one) => [name, one] as const),
  );
}

export function createEgressUpstream(
  ca: string[],
  egress: { httpsProxy: string; httpProxy: string; noProxy: string },
  description: string,
): UpstreamClient {
  // Always given, '' when unset: the agent must read the environment given, never fall back to process.env.
  const dispatcher = new EnvHttpProxyAgent({
    connect: { ca },
    requestTls: { ca },
    proxyTls: { ca },
    ...egress,
  });
  return {
    description,
    async send(request) {
      const answer = await undiciRequest(request.url, {
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        ...(request.body && { body: request.body }),
        dispatcher,
        headersTimeout: request.timeoutMs,
        bodyTimeout: request.timeoutMs,
      });
      return {
        statusCode: answer.statusCode,
        headers: headerList(answer.headers),
        body: (answer.body as AsyncIterable<Buffer>)[Symbol.asyncIterator](),
      };
    },
    close: () => dispatcher.close(),
  };
}

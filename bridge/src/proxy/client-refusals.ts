/**
 * What the proxy refuses before a request exists: what Node's HTTP parser rejects (`clientError`:
 * headers past 16 KiB, a request line past it, a malformed request, one that did not arrive in time)
 * and `CONNECT` (a tunnel to an HTTPS server, which this proxy does not open: it records the API's
 * traffic in the clear). Each is answered on the raw socket with the API's error array, worded as the
 * simulator words the same refusals, its code saying the proxy refused (`proxy_` and the simulator's
 * code), where Node answered with no body (400, 431) or closed the connection without a word
 * (CONNECT). Nothing reached the implementation, so nothing is recorded.
 */
import type { Duplex } from 'node:stream';
import { ERROR_CATALOGUE } from '../../../simulator/src/core/api-error.js';
import { classifyParserError, rawJsonResponse } from '../../../simulator/src/server/client-error.js';
import { failureBody, type UpstreamFailureAnswer } from './upstream-failure.js';

/** Node's parser error as the proxy's answer. */
export function refusalOf(error: Parameters<typeof classifyParserError>[0]): UpstreamFailureAnswer {
  const { code, message } = classifyParserError(error);
  return { status: ERROR_CATALOGUE[code].status, failure: { code: `proxy_${code}`, message } };
}

const rawRefusal = (answer: UpstreamFailureAnswer, requestId: string) =>
  rawJsonResponse(answer.status, failureBody(answer, requestId));

/** The `clientError` listener: answers while the socket can still carry an answer, else closes it. */
export function answerClientError(requestIds: () => string) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(rawRefusal(refusalOf(error), requestIds()));
  };
}

/** The `connect` listener: no tunnel; the message says how to put the proxy in the client's path. */
export function refuseConnect(proxyUrl: () => string, requestIds: () => string) {
  return (_request: unknown, socket: Duplex): void => {
    const answer: UpstreamFailureAnswer = {
      status: 405,
      failure: {
        code: 'proxy_no_tunnel',
        message: `The recording proxy opens no tunnels (CONNECT): give the client ${proxyUrl()} as the API's base URL instead of as its HTTPS proxy.`,
      },
    };
    socket.end(rawRefusal(answer, requestIds()));
  };
}

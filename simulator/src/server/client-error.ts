/**
 * Answers what Node's HTTP parser refuses before a request exists (`clientError`), and `CONNECT`, in
 * the API's error array (ERR-BODY) on the raw socket: Node's own answers had an empty body (400, 431)
 * or none at all (CONNECT closed the connection).
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { apiError, type ErrorCode } from '../core/api-error.js';
import { renderErrors } from '../pipeline/serialize.js';

interface ParserError extends Error {
  code?: string;
  reason?: string;
  rawPacket?: Buffer;
}

/** The request line alone is over the header limit: 414, not 431. */
function requestLineTooLong(rawPacket: Buffer | undefined): boolean {
  return rawPacket !== undefined && !rawPacket.includes('\r\n') && !rawPacket.includes('\n');
}

/** llhttp's error code -> our error code and a message that says what was wrong. */
export function classifyParserError(error: ParserError): { code: ErrorCode; message: string } {
  const reason = error.reason ?? error.message;
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return requestLineTooLong(error.rawPacket)
        ? { code: 'uri_too_long', message: 'The request line exceeds the 16 KiB header limit.' }
        : { code: 'request_header_fields_too_large', message: 'The request line and headers exceed 16 KiB.' };
    case 'HPE_INVALID_METHOD':
      // ERR-405: a method no resource accepts.
      return { code: 'method_not_allowed', message: `Method not recognised (${reason}).` };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT':
      return { code: 'request_timeout', message: 'The request did not arrive in time.' };
    default:
      return { code: 'bad_request', message: `The HTTP request is malformed: ${reason}.` };
  }
}

/** A complete HTTP/1.1 response with a JSON body, closing the connection (written on the raw socket). */
export function rawJsonResponse(status: number, body: string): string {
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** A complete HTTP/1.1 response carrying one error, closing the connection. */
export function rawErrorResponse(code: ErrorCode, message: string, requestId: string): string {
  const answer = renderErrors(apiError(code, { message }), requestId);
  return rawJsonResponse(answer.status, JSON.stringify(answer.body));
}

/** The `clientError` listener: answers when the socket can still carry an answer, else closes it. */
export function answerClientError(requestIds: () => string) {
  return (error: ParserError, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { code, message } = classifyParserError(error);
    socket.end(rawErrorResponse(code, message, requestIds()));
  };
}

/** The `connect` listener: CONNECT is a method no resource accepts (ERR-405); no tunnel is opened. */
export function refuseConnect(requestIds: () => string) {
  return (_request: unknown, socket: Duplex): void => {
    const message = 'Method "CONNECT" not allowed: this server is not a proxy.';
    socket.end(rawErrorResponse('method_not_allowed', message, requestIds()));
  };
}

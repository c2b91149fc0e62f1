/**
 * When a request's handling starts, and when its answer is written. With one connection open, at once:
 * the handler inside the read that parsed the request, as node:http calls it, and the answer as soon as
 * it is made. With more, each waits for the event loop's next turn (setImmediate): every connection
 * ready in a poll is read and parsed first, then every handler of that turn runs, then, a turn later,
 * every answer of that turn is written, one after the other. Made and written each in turn, an answer's
 * rules ran between two reads and two writes of a whole page. Measured as the server's CPU per request
 * at 20 connections (interleaved rounds, medians):
 *
 * - handlers after the reads: a page of 100 transactions 180 -> 139 us, GET a link 86 -> 68 us, POST a
 *   link 181 -> 161 us, the HTTP adapter alone on a constant body 41 -> 28.5 us (at 4 connections, GET
 *   a link 86 -> 80 us);
 * - then the writes after the handlers: a page 128 -> 94 us, GET a link 66 -> 48 us, POST a link
 *   160 -> 128 us.
 *
 * A `process.nextTick` in place of the turn (still inside the read) changed nothing: what the turns save
 * is the interleaving itself, the same code run for each request in a row. With one connection a turn
 * only costs (about 3 us a request on GET a link, 105 -> 109 us), so a lone connection never waits.
 *
 * A request that closes its connection (`Connection: close`, HTTP/1.0 without keep-alive) never waits
 * either: its client may half-close right after sending it, and node:http ends the socket when the
 * client's end is read, in the same poll, unless the server is half-open (the HTTP adapter makes it
 * so, through node:http's `httpAllowHalfOpen`, which Node does not document): such a request is answered
 * at once whatever the server.
 */
import type { IncomingMessage, Server } from 'node:http';

/** Whether the connection stays open after `request`'s answer (RFC 9112 9.3). */
function keepsAlive(request: IncomingMessage): boolean {
  const connection = request.headers.connection?.toLowerCase() ?? '';
  return request.httpVersion === '1.0' ? connection.includes('keep-alive') : !connection.includes('close');
}

/** The event loop's next turn, after the I/O of this one. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Counts `server`'s open connections and tells, when `request` arrives, whether it is handled and
 * answered in turns (each after `nextTurn`): while more than one connection is open and the request
 * keeps its connection; else both at once.
 */
export function handlerTurns(server: Server): (request: IncomingMessage) => boolean {
  let open = 0;
  server.on('connection', (socket) => {
    open += 1;
    socket.once('close', () => {
      open -= 1;
    });
  });
  return (request) => open > 1 && keepsAlive(request);
}

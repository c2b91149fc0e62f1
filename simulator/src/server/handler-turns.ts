/**
 * When a request's handling starts. With one connection open, at once: inside the read that parsed the
 * request, as node:http calls its handler. With more, in the event loop's turn after its I/O
 * (setImmediate): every connection ready in that poll is read and parsed first, then each answer is made
 * and written, one after the other, instead of each answer between two reads. Measured as the server's
 * CPU per request at 20 connections (interleaved rounds, medians): a page of 100 transactions 180 -> 139
 * us, GET a link 86 -> 68 us, POST a link 181 -> 161 us, the adapter alone on a constant body 41 -> 28.5
 * us; at 4 connections GET a link 86 -> 80 us. A `process.nextTick` in place of the turn (still inside
 * the read) changed nothing, so what it saves is the interleaving itself: the same code run for each
 * answer in a row. With one connection the wait only costs (about 3 us a request on GET a link, 105 ->
 * 109 us), so a lone connection does not wait.
 */
import type { Server } from 'node:http';

/**
 * Counts `server`'s open connections and gives the wait before a handler starts: a promise of the next
 * turn while more than one connection is open, else undefined (start at once).
 */
export function handlerTurns(server: Server): () => Promise<void> | undefined {
  let open = 0;
  server.on('connection', (socket) => {
    open += 1;
    socket.once('close', () => {
      open -= 1;
    });
  });
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  return () => (open > 1 ? nextTurn() : undefined);
}

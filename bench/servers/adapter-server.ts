/**
 * Bench child: the simulator's HTTP adapter alone (no rule, no store, no judge), answering every
 * request with the same constant JSON body, on 127.0.0.1 and an OS-chosen port. Beside bare node:http
 * serving the same bytes it shows what the adapter costs before any rule runs.
 * Run with `node --import tsx bench/servers/adapter-server.ts`.
 */
import { createHttpServer, listen } from '../../simulator/src/server/http-adapter.js';
import { exitCleanly, reportReady } from './child-protocol.js';

/** About the size of a small answer (some 520 bytes): 18 short members. */
export const CONSTANT_BODY: Readonly<Record<string, string>> = Object.fromEntries(
  Array.from({ length: 18 }, (_, i) => [`member_${String(i).padStart(2, '0')}`, 'constant-value']),
);

const server = createHttpServer({
  handle: async () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: CONSTANT_BODY }),
  maxBodyBytes: 1_048_576,
});
const url = await listen(server, 0, '127.0.0.1');
exitCleanly(server);
reportReady({ url });

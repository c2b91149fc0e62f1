/**
 * Bench child: json-server's app (its default configuration, request logging off) over the database
 * file, on 127.0.0.1 and an OS-chosen port. Its own command line would listen on every interface (it
 * ignores --host when it listens), so the bench serves its app itself, on loopback only.
 * Run with `node --import tsx bench/peers/json-server-main.ts --db FILE`.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createApp } from 'json-server/lib/app.js';
import { exitCleanly, reportReady } from '../servers/child-protocol.js';

type Database = Parameters<typeof createApp>[0];

const { values } = parseArgs({ options: { db: { type: 'string' } } });
if (values.db === undefined) throw new Error('--db is required');
// lowdb's in-memory store, as its Memory adapter keeps it: the data, read once; writes stay in memory.
const data = JSON.parse(readFileSync(values.db, 'utf8')) as Database['data'];
const database = { data, read: async () => undefined, write: async () => undefined } as unknown as Database;
const app = createApp(database, { logger: false });
const server = app.listen(
  0,
  () => {
    const { port } = server.address() as AddressInfo;
    exitCleanly(server);
    reportReady({ url: `http://127.0.0.1:${port}` });
  },
  '127.0.0.1',
);

/**
 * A handler starts at once while one connection is open, and after the event loop's turn while more
 * are: it then runs after everything else the request's arrival set off (here, the server's other
 * `request` listener and the tick it queued).
 */
import { Agent, get, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer, listen } from './http-adapter.js';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

/** A server whose handler notes, for each request, whether the rest of its arrival had run before it. */
async function observedServer() {
  const startedLate: boolean[] = [];
  let arrivals = 0;
  let ticks = 0;
  let handled = 0;
  server = createHttpServer({
    maxBodyBytes: 1024,
    handle: async () => {
      handled += 1;
      // This request's own listener ran, and its tick: the handler waited for the turn.
      startedLate.push(arrivals === handled && ticks === handled);
      return { status: 200, headers: { 'content-type': 'application/json' }, body: { ok: true } };
    },
  });
  // Runs after the adapter's own listener, and queues a tick: both done only if the handler waited.
  server.on('request', () => {
    arrivals += 1;
    process.nextTick(() => {
      ticks += 1;
    });
  });
  return { url: await listen(server, 0, '127.0.0.1'), startedLate };
}

/** GET `url` through `agent`, its JSON answer. */
function answerOn(agent: Agent, url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve(JSON.parse(text)));
    }).on('error', reject);
  });
}

/** An open connection that sends nothing, and resolves once the server has it. */
async function idleConnection(url: string): Promise<void> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  sockets.push(socket);
  await new Promise((resolve) => socket.once('connect', resolve));
  // The server counts it when it accepts it: one request through it proves the accept happened.
  socket.write('GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await new Promise((resolve) => socket.once('data', resolve));
}

describe('handler turns', () => {
  it('starts a handler at once while one connection is open', async () => {
    const { url, startedLate } = await observedServer();
    // One keep-alive connection, each answer read whole before the next request goes on it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let connections = 0;
    server!.on('connection', () => {
      connections += 1;
    });
    for (let index = 0; index < 3; index++) expect(await answerOn(agent, `${url}/a`)).toEqual({ ok: true });
    agent.destroy();
    expect(connections).toBe(1);
    expect(startedLate).toEqual([false, false, false]);
  });

  it('starts it after the turn while another connection is open, and answers it', async () => {
    const { url, startedLate } = await observedServer();
    await idleConnection(url);
    startedLate.length = 0;
    const answer = await fetch(`${url}/b`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: true });
    expect(startedLate).toEqual([true]);
  });
});

/**
 * A handler starts and its answer is written at once while one connection is open; while more are, the
 * handler starts after the event loop's turn (after everything else the request's arrival set off: here
 * the server's other `request` listener and the tick it queued), and the answer is written a turn after
 * the handler ran.
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

/**
 * A server that notes, for each request, whether the rest of its arrival had run before its handler
 * started, and whether a turn queued by its handler had run before its answer was written.
 */
async function observedServer() {
  const startedLate: boolean[] = [];
  const writtenLate: boolean[] = [];
  let arrivals = 0;
  let ticks = 0;
  let handled = 0;
  let handlerTurnRan = false;
  server = createHttpServer({
    maxBodyBytes: 1024,
    handle: async () => {
      handled += 1;
      // This request's own listener ran, and its tick: the handler waited for the turn.
      startedLate.push(arrivals === handled && ticks === handled);
      handlerTurnRan = false;
      setImmediate(() => {
        handlerTurnRan = true;
      });
      return { status: 200, headers: { 'content-type': 'application/json' }, body: { ok: true } };
    },
  });
  // Runs after the adapter's own listener, and queues a tick: both done only if the handler waited.
  server.on('request', (_request, response) => {
    arrivals += 1;
    process.nextTick(() => {
      ticks += 1;
    });
    const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => typeof response;
    response.writeHead = ((...args: unknown[]) => {
      writtenLate.push(handlerTurnRan);
      return writeHead(...args);
    }) as typeof response.writeHead;
  });
  return { url: await listen(server, 0, '127.0.0.1'), startedLate, writtenLate };
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

/** Sends `text` on a new connection and half-closes it at once; everything the server wrote back. */
async function halfClosed(url: string, text: string): Promise<string> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  sockets.push(socket);
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    answer += chunk;
  });
  socket.end(text);
  await new Promise((resolve) => socket.once('close', resolve));
  return answer;
}

describe('handler turns', () => {
  it('starts a handler at once while one connection is open', async () => {
    const { url, startedLate, writtenLate } = await observedServer();
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
    expect(writtenLate).toEqual([false, false, false]);
  });

  it('starts it after the turn while another connection is open, writes its answer a turn later, and answers it', async () => {
    const { url, startedLate, writtenLate } = await observedServer();
    await idleConnection(url);
    startedLate.length = 0;
    writtenLate.length = 0;
    const answer = await fetch(`${url}/b`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: true });
    expect(startedLate).toEqual([true]);
    // Written a turn after its handler ran: after the turn the handler queued.
    expect(writtenLate).toEqual([true]);
  });

  it('answers at once a request that closes its connection, its client half-closed, another connection open', async () => {
    const { url, startedLate } = await observedServer();
    await idleConnection(url);
    for (const head of [
      'GET /c HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
      'GET /d HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n',
    ]) {
      startedLate.length = 0;
      const answer = await halfClosed(url, head);
      expect(answer).toMatch(/^HTTP\/1\.[01] 200 /);
      expect(answer).toContain('{"ok":true}');
      expect(startedLate).toEqual([false]);
    }
  });

  it('answers a keep-alive request whose client half-closes right after it, another connection open', async () => {
    const { url, startedLate } = await observedServer();
    await idleConnection(url);
    startedLate.length = 0;
    const answer = await halfClosed(url, 'GET /e HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('{"ok":true}');
    // Handled after the turn, answered all the same, and the connection ended after the answer.
    expect(startedLate).toEqual([true]);
  });
});

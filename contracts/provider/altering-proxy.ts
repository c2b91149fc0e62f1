/**
 * A small HTTP proxy for the verification's own tests: it forwards to a provider and lets a test alter
 * what it answers, to stand for a provider that breaks one rule or lacks the control API.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type ProxyStep = (
  request: { method: string; path: string },
  forward: () => Promise<ProxiedAnswer>,
) => Promise<ProxiedAnswer>;

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding']);

async function forwardTo(target: string, request: IncomingMessage): Promise<ProxiedAnswer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = [value].flat().join(', ');
  }
  const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
  const response = await fetch(`${target}${request.url ?? '/'}`, { method: request.method, headers, body });
  const answerHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') answerHeaders[name] = value;
  });
  return { status: response.status, headers: answerHeaders, body: await response.text() };
}

/** Listens on 127.0.0.1, port 0; every request goes through `step`. */
export async function startAlteringProxy(
  target: string,
  step: ProxyStep,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://proxy').pathname;
    const answer = await step({ method: request.method ?? 'GET', path }, () => forwardTo(target, request));
    response.writeHead(answer.status, answer.headers).end(answer.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * The one altering proxy of the tests (the suite's and Pact's): a server on 127.0.0.1 (port 0) in front
 * of a real target that stands for another implementation of the API. It answers some requests itself
 * (a server of a few operations, a provider without the control API), lets one key's requests reach
 * another key's data (AUTH-TENANT broken), serves pages above the cap (PAGE-MAX broken), or differs
 * harmlessly (members in another order, members left out or added, bodies in chunks). Faults of one rule
 * the simulator can have are its breaks (`--break`), not proxies; a catch-all that answers `200 {}`,
 * one that answers empty lists, and a server that keeps nothing (its lists and retrievals empty).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { alterBody, altersBodies, type BodyAlterations } from './answer-alterations.js';
import { uncappedPage } from './uncapped-pages.js';

export interface RunningServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/** An answer the proxy sends instead of the target's. */
export interface ProxiedAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/** The request as the `answer` hook sees it (headers lower-case, as node gives them). */
export interface ProxiedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
}

export interface ProxyAlterations extends BodyAlterations {
  /** Answers a request itself (returns the answer) or lets it through to the target (undefined). */
  answer?: (request: ProxiedRequest) => ProxiedAnswer | undefined;
  /** AUTH-TENANT broken: requests with `from` credentials (`id:secret`) reach the target as `to`. */
  leak?: { from: string; to: string };
  /** PAGE-MAX broken: a `page_size` above 1000 served as asked (uncapped-pages.ts). */
  uncappedPages?: boolean;
  /** Harmless: answers sent with chunked transfer encoding, in pieces of a few bytes. */
  chunked?: boolean;
  /**
   * A server that keeps nothing: every successful list answered as an empty page and every retrieval
   * as `[]` (the control API's answers pass as they are).
   */
  keepsNothing?: boolean;
}

/** A success body with its records taken out: `[]` for a list, an empty page for a page. */
function emptied(text: string): string {
  const json: unknown = JSON.parse(text);
  if (Array.isArray(json)) return '[]';
  if (typeof json === 'object' && json !== null && Array.isArray((json as { results?: unknown }).results))
    return JSON.stringify({ ...json, count: 0, next: null, previous: null, results: [] });
  return text;
}

/** Characters per chunk of a chunked answer. */
const CHUNK = 7;
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding']);

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<RunningServer> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Answers `200 application/json {}` to any request, whatever its path, method or credentials. */
export function startCatchAll(): Promise<RunningServer> {
  return serve((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
}

/**
 * Answers every GET with an empty page (`{count: 0, next: null, previous: null, results: []}`) and any
 * other request with `200 []`, whatever its path or credentials: every list and retrieval a success with
 * a valid body, and not one record.
 */
export function startEmptyLists(): Promise<RunningServer> {
  return serve((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.method === 'GET' ? '{"count":0,"next":null,"previous":null,"results":[]}' : '[]');
    });
  });
}

const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;

function headersOf(from: IncomingMessage['headers'] | Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(from)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = [value].flat().join(', ');
  }
  return headers;
}

/** The target's answer to the request, or the proxy's own (a hook, a stitched page). */
async function answerOf(
  upstream: string,
  req: IncomingMessage,
  body: Buffer | undefined,
  alterations: ProxyAlterations,
): Promise<ProxiedAnswer> {
  const headers = headersOf(req.headers);
  const path = new URL(req.url ?? '/', 'http://proxy').pathname;
  const own = alterations.answer?.({ method: req.method ?? 'GET', path, headers });
  if (own) return own;
  const { leak } = alterations;
  if (leak && headers.authorization === basic(leak.from)) headers.authorization = basic(leak.to);
  const stitched =
    alterations.uncappedPages && req.method === 'GET'
      ? await uncappedPage(upstream, req.url ?? '/', headers)
      : undefined;
  if (stitched)
    return { status: stitched.status, headers: { 'content-type': 'application/json' }, body: stitched.text };
  const answer = await request(`${upstream}${req.url}`, {
    method: req.method as 'GET',
    headers,
    ...(body ? { body } : {}),
  });
  return { status: answer.statusCode, headers: headersOf(answer.headers), body: await answer.body.text() };
}

/** A proxy to `upstream` with `alterations`; bodies are read whole and passed on (content-length redone). */
export async function startAlteringProxy(
  upstream: string,
  alterations: ProxyAlterations = {},
): Promise<RunningServer> {
  let origin = '';
  const proxy = await serve((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      try {
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const answer = await answerOf(upstream, req, body, alterations);
        // Links (`next`, `previous`) name the proxy, as a server's own would.
        let text = answer.body.replaceAll(upstream, origin);
        const json = String(answer.headers?.['content-type'] ?? '').includes('json');
        if (altersBodies(alterations) && json && text.length > 0)
          text = JSON.stringify(alterBody(alterations, JSON.parse(text)));
        const control = req.url?.startsWith('/_ofkit/') ?? false;
        if (alterations.keepsNothing && json && answer.status < 300 && !control && text.length > 0)
          text = emptied(text);
        res.writeHead(answer.status, answer.headers ?? {});
        if (alterations.chunked && answer.status !== 204) {
          // No content-length: node sends `transfer-encoding: chunked`, one chunk per write.
          for (let at = 0; at < text.length; at += CHUNK) res.write(text.slice(at, at + CHUNK));
          res.end();
        } else res.end(answer.status === 204 ? undefined : text);
      } catch (error) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ request_id: 'proxy', message: String(error), code: 'bad_gateway' }]));
      }
    });
  });
  origin = proxy.baseUrl;
  return proxy;
}

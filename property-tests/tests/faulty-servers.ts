/**
 * Servers the suite's tests run against to prove its verdicts: a catch-all that answers
 * `200 {}` to everything, and a proxy in front of a real target that breaks it in one way (leaking one
 * key's data to another, serving a `page_size` above 1000 uncapped, the body faults of
 * answer-alterations.ts) or differs from it harmlessly (an undocumented member on every record, members
 * in another order, an optional deprecated member left out, bodies sent in chunks).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { alterBody, altersBodies, type BodyAlterations } from './answer-alterations.js';

export interface RunningServer {
  baseUrl: string;
  stop(): Promise<void>;
}

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

export interface ProxyFault extends BodyAlterations {
  /** Harmless: answers sent with chunked transfer encoding, in pieces of a few bytes. */
  chunked?: boolean;
  /** AUTH-TENANT broken: requests with `from` credentials reach the target as `to` (one shared store). */
  leak?: { from: string; to: string };
  /** Harmless: every JSON object with a string `id` gets this undocumented member. */
  extraMember?: string;
  /**
   * PAGE-MAX broken the way a server forgets its cap: a `page_size` above 1000 served as asked (the
   * proxy stitches the upstream's pages of 1000 together, so `page_size=1500` gives 1500 records).
   */
  uncappedPages?: boolean;
}

const CAP = 1000;
/** Characters per chunk of a chunked answer. */
const CHUNK = 7;

/** The page `page_size` above the cap asks for, stitched from the upstream's capped pages; else undefined. */
async function uncappedPage(
  upstream: string,
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string } | undefined> {
  const asked = new URL(url, upstream);
  const size = Number(asked.searchParams.get('page_size'));
  const page = Number(asked.searchParams.get('page') ?? '1');
  if (!Number.isInteger(size) || size <= CAP || !Number.isInteger(page) || page < 1) return undefined;
  const start = (page - 1) * size;
  const results: unknown[] = [];
  let count = 0;
  for (let upstreamPage = Math.floor(start / CAP) + 1; results.length < size; upstreamPage += 1) {
    const query = new URLSearchParams(asked.searchParams);
    query.set('page', String(upstreamPage));
    query.set('page_size', String(CAP));
    const answer = await request(`${upstream}${asked.pathname}?${query}`, { headers });
    const body = (await answer.body.json()) as { count: number; results: unknown[] };
    if (answer.statusCode !== 200) return undefined;
    count = body.count;
    const offset = upstreamPage === Math.floor(start / CAP) + 1 ? start % CAP : 0;
    results.push(...body.results.slice(offset));
    if ((upstreamPage - 1) * CAP + body.results.length >= count) break;
  }
  const link = (to: number) => {
    const query = new URLSearchParams(asked.searchParams);
    query.set('page', String(to));
    return `${upstream}${asked.pathname}?${query}`;
  };
  const last = Math.max(1, Math.ceil(count / size));
  const next = page < last ? link(page + 1) : null;
  const previous = page > 1 ? link(Math.min(page - 1, last)) : null;
  return { status: 200, text: JSON.stringify({ count, next, previous, results: results.slice(0, size) }) };
}

const basic = (key: string) => `Basic ${Buffer.from(key).toString('base64')}`;

function addMember(value: unknown, member: string): unknown {
  if (Array.isArray(value)) return value.map((item) => addMember(item, member));
  if (typeof value !== 'object' || value === null) return value;
  const copy = Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, addMember(child, member)]),
  );
  return typeof copy.id === 'string' ? { ...copy, [member]: 'undocumented' } : copy;
}

/** A proxy to `upstream` with one fault; bodies are read whole and passed on (content-length redone). */
export async function startFaultyProxy(upstream: string, fault: ProxyFault): Promise<RunningServer> {
  let origin = '';
  const proxy = await serve((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined && !['host', 'connection', 'content-length'].includes(name))
          headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      if (fault.leak && headers.authorization === basic(fault.leak.from)) {
        headers.authorization = basic(fault.leak.to);
      }
      try {
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const stitched =
          fault.uncappedPages && req.method === 'GET'
            ? await uncappedPage(upstream, req.url ?? '/', headers)
            : undefined;
        if (stitched) {
          res.writeHead(stitched.status, { 'content-type': 'application/json' });
          res.end(stitched.text.replaceAll(upstream, origin));
          return;
        }
        const answer = await request(`${upstream}${req.url}`, {
          method: req.method as 'GET',
          headers,
          ...(body ? { body } : {}),
        });
        let text = await answer.body.text();
        const type = String(answer.headers['content-type'] ?? '');
        // Links (`next`, `previous`) name the proxy, as a server's own would.
        text = text.replaceAll(upstream, origin);
        if (fault.extraMember && type.includes('json') && text.length > 0) {
          text = JSON.stringify(addMember(JSON.parse(text), fault.extraMember));
        }
        if (altersBodies(fault) && type.includes('json') && text.length > 0) {
          const asked = {
            method: req.method ?? 'GET',
            url: new URL(req.url ?? '/', origin),
            status: answer.statusCode,
          };
          text = JSON.stringify(alterBody(fault, asked, JSON.parse(text)));
        }
        const out: Record<string, string> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !['content-length', 'transfer-encoding', 'connection'].includes(name))
            out[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        res.writeHead(answer.statusCode, out);
        if (fault.chunked && answer.statusCode !== 204) {
          // No content-length: node sends `transfer-encoding: chunked`, one chunk per write.
          for (let at = 0; at < text.length; at += CHUNK) res.write(text.slice(at, at + CHUNK));
          res.end();
        } else res.end(answer.statusCode === 204 ? undefined : text);
      } catch (error) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ request_id: 'proxy', message: String(error), code: 'bad_gateway' }]));
      }
    });
  });
  origin = proxy.baseUrl;
  return proxy;
}

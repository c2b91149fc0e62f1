/**
 * A tiny implementation of two operations (GET /api/ and GET /api/links/) for the teeth tests, with
 * switches that break one rule each: no authentication (AUTH-BASIC), problem+json errors (ERR-BODY), a
 * `page_size` that is ignored (PAGE-MAX).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basicAuthorization } from '../../openapi/config/api-keys.js';

export interface FakeBreakage {
  authOptional?: boolean;
  problemJson?: boolean;
  ignorePageSize?: boolean;
}

export const FAKE_KEY = { id: 'fake-id', secret: 'fake-secret-value' };
const LINKS = Array.from({ length: 30 }, (_, index) => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  institution: 'ofbank_br_retail',
  access_mode: 'single',
  status: 'valid',
  // Spread over a month: a target that filters nothing must be told apart from one that filters right.
  created_at: `2026-10-${String(1 + (index % 28)).padStart(2, '0')}T12:00:00.000Z`,
  external_id: null,
  last_accessed_at: null,
  fetch_resources: ['ACCOUNTS'],
  stale_in: null,
  credentials_storage: '27d',
}));
let requests = 0;
const METHODS: Record<string, string[]> = { '/api/': ['GET'], '/api/links/': ['GET', 'POST', 'PATCH'] };

function send(response: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  response.writeHead(status, { 'content-type': type });
  response.end(JSON.stringify(body));
}

function fail(
  response: ServerResponse,
  breakage: FakeBreakage,
  status: number,
  code: string,
  field?: string,
) {
  if (breakage.problemJson) {
    send(response, status, { type: 'about:blank', title: code, status }, 'application/problem+json');
  } else {
    // ERR-BODY: each error's request_id is its request's own.
    requests += 1;
    const request_id = `fake-${requests}`;
    send(response, status, [{ request_id, message: `${code}.`, code, ...(field ? { field } : {}) }]);
  }
}

function listLinks(url: URL, response: ServerResponse, breakage: FakeBreakage): void {
  const text = {
    page: url.searchParams.get('page') ?? '1',
    page_size: url.searchParams.get('page_size') ?? '100',
  };
  // PAGE-MAX: a `page_size` below 1 or not an integer, or a `page` not an integer, is refused.
  const valid = { page: /^-?\d+$/, page_size: /^[1-9]\d*$/ };
  for (const [field, value] of Object.entries(text)) {
    if (!valid[field as keyof typeof valid].test(value)) {
      fail(response, breakage, 400, 'invalid', field);
      return;
    }
  }
  const size = breakage.ignorePageSize ? LINKS.length : Math.min(Number(text.page_size), 1000);
  const page = Number(text.page);
  const link = (n: number) => `${url.origin}/api/links/?page=${n}&page_size=${text.page_size}`;
  // A page below 1 holds no records; its `next` is the first page.
  send(response, 200, {
    count: LINKS.length,
    next: page < 1 ? link(1) : page * size < LINKS.length ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results: page < 1 ? [] : LINKS.slice((page - 1) * size, page * size),
  });
}

function handle(request: IncomingMessage, response: ServerResponse, breakage: FakeBreakage): void {
  const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
  const expected = basicAuthorization(FAKE_KEY.id, FAKE_KEY.secret);
  const methods = METHODS[url.pathname];
  if (!methods) fail(response, breakage, 404, 'not_found');
  else if (!methods.includes(request.method ?? '')) fail(response, breakage, 405, 'method_not_allowed');
  else if (request.headers.authorization !== expected && !breakage.authOptional) {
    fail(response, breakage, 401, 'authentication_failed');
  } else if (url.pathname === '/api/links/' && request.method === 'GET') listLinks(url, response, breakage);
  else if (url.pathname === '/api/') {
    send(response, 200, { service: 'fake', version: '1.223.0', environment: 'production' });
  } else fail(response, breakage, 400, 'invalid');
}

/** Starts the fake on 127.0.0.1 (a free port); resolves with its base URL and a stop function. */
export async function startFakeTarget(
  breakage: FakeBreakage = {},
): Promise<{ baseUrl: string; stop: () => void }> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => handle(request, response, breakage));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

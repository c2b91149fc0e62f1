/**
 * Where a request goes and where pagination links point, read from the request line and a checked
 * `Host`: never `new URL(target, 'http://' + host)`, which threw (500) on `Host: exa mple` and read a
 * `//` path as a protocol-relative URL.
 */
import type { IncomingMessage } from 'node:http';

export interface RequestTarget {
  path: string;
  query: URLSearchParams;
}

/** RFC 9112 3.2: a reg-name (letters, digits, `-`, `.`), an IPv4 or a bracketed IPv6, then `:port`. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/** The path and query of an origin-form (`/a?b`) or absolute-form (`http://h/a?b`) target. */
export function parseTarget(target: string): RequestTarget | undefined {
  if (target.startsWith('/')) {
    const mark = target.indexOf('?');
    if (mark < 0) return { path: target, query: new URLSearchParams() };
    return { path: target.slice(0, mark), query: new URLSearchParams(target.slice(mark + 1)) };
  }
  if (!/^https?:\/\//i.test(target)) return undefined;
  try {
    const url = new URL(target);
    return { path: url.pathname, query: url.searchParams };
  } catch {
    return undefined;
  }
}

/** A Host header value the origin can be built from, or undefined. */
export function validHost(host: string): string | undefined {
  const match = HOST.exec(host);
  if (!match) return undefined;
  const port = match[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return undefined;
  return host;
}

/** `http://<Host>`; without a Host (HTTP/1.0), the address the request came in on. */
export function originOf(request: IncomingMessage, host: string | undefined): string {
  if (host !== undefined) return `http://${host}`;
  const { localAddress = '127.0.0.1', localPort } = request.socket;
  const address = localAddress.includes(':') ? `[${localAddress}]` : localAddress;
  return `http://${address}${localPort === undefined ? '' : `:${localPort}`}`;
}

/** Read once per request: where it goes and its Host, or why the core cannot answer it. */
export type ReadTarget = { target: RequestTarget; host: string | undefined } | { problem: string };

/**
 * The request's target and its checked Host, or why the core cannot answer it. RFC 9112 3.2: an
 * HTTP/1.1 request without a Host, or with more than one, or with an invalid one, gets 400. The Host
 * headers are counted from the raw ones (Node keeps the first alone in `headers`).
 */
export function readTarget(request: IncomingMessage): ReadTarget {
  let host: string | undefined;
  let hosts = 0;
  const raw = request.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!;
    if (name.length === 4 && name.toLowerCase() === 'host') {
      hosts += 1;
      host ??= raw[index + 1];
    }
  }
  if (hosts > 1) return { problem: 'The request has more than one Host header.' };
  if (host === undefined && request.httpVersion === '1.1')
    return { problem: 'An HTTP/1.1 request needs a Host header.' };
  if (host !== undefined && validHost(host) === undefined) {
    return { problem: `The Host header ${JSON.stringify(host)} is not a host[:port].` };
  }
  const target = parseTarget(request.url ?? '');
  if (target === undefined) {
    return {
      problem: `The request target ${JSON.stringify(request.url)} is neither a path nor an http URL.`,
    };
  }
  return { target, host };
}

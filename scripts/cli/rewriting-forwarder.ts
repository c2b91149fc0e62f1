/**
 * The thin HTTP layer `ofkit proxy` puts in front of Prism: client -> this listener -> Prism's proxy ->
 * the implementation. Prism passes bodies through untouched, so a paginated envelope's `next` and
 * `previous` (and any other absolute URL) still point at the implementation, and a client following them
 * leaves the proxy. This layer rewrites, in JSON bodies only, every string that starts with the
 * implementation's base URL to the proxy's own address (the Host the client used), and fixes
 * content-length. Everything else (status, headers, non-JSON bodies, encoded bodies) passes unchanged.
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';

export interface ForwarderOptions {
  /** Where Prism listens (http://127.0.0.1:N). */
  prismUrl: string;
  /** The implementation's base URL as given on the command line (no trailing slash). */
  upstreamBaseUrl: string;
  /** Resolves once Prism accepts connections; requests wait for it (rejects: 502). */
  ready: Promise<void>;
}

/**
 * Replaces the `from` prefix with `to` in every string of a JSON value that is `from` itself or
 * continues with `/`, `?` or `#` (so http://host:80 does not touch http://host:8000).
 */
export function rewriteUrls(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith(from)) return value;
    const rest = value.slice(from.length);
    return rest === '' || '/?#'.includes(rest[0]!) ? to + rest : value;
  }
  if (Array.isArray(value)) return value.map((item) => rewriteUrls(item, from, to));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = rewriteUrls(item, from, to);
    return copy;
  }
  return value;
}

/** The body to send on: rewritten when it is uncompressed JSON that mentions the upstream. */
export function rewriteBody(
  body: Buffer,
  headers: IncomingMessage['headers'],
  from: string,
  to: string,
): Buffer {
  const type = String(headers['content-type'] ?? '');
  const encoding = String(headers['content-encoding'] ?? 'identity');
  if (!/[/+]json\b/i.test(type) || encoding !== 'identity') return body;
  const text = body.toString('utf8');
  // Cheap pre-check (JSON may escape `/` as `\/`, never the host): most bodies mention no URL.
  if (!text.includes(new URL(from).host)) return body;
  try {
    return Buffer.from(JSON.stringify(rewriteUrls(JSON.parse(text), from, to)));
  } catch {
    return body; // not JSON after all: pass it on as it came
  }
}

function badGateway(response: ServerResponse, message: string): void {
  response.writeHead(502, { 'content-type': 'application/json' });
  response.end(JSON.stringify([{ request_id: 'ofkit-proxy', message, code: 'BAD_GATEWAY' }]));
}

async function forward(options: ForwarderOptions, incoming: IncomingMessage, response: ServerResponse) {
  try {
    await options.ready;
  } catch (error) {
    badGateway(response, `Prism's proxy is not running (${(error as Error).message})`);
    return;
  }
  const proxyOrigin = `http://${incoming.headers.host ?? 'localhost'}`;
  // Ask for an identity body so a JSON answer can be read and rewritten.
  const headers = { ...incoming.headers };
  delete headers['accept-encoding'];
  const outgoing = request(
    new URL(incoming.url ?? '/', options.prismUrl),
    { method: incoming.method, headers },
    (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const from = options.upstreamBaseUrl;
        const body = rewriteBody(Buffer.concat(chunks), answer.headers, from, proxyOrigin);
        const out = { ...answer.headers };
        delete out['transfer-encoding'];
        if (body.length > 0 || out['content-length'] !== undefined)
          out['content-length'] = String(body.length);
        const location = out.location;
        if (typeof location === 'string') out.location = rewriteUrls(location, from, proxyOrigin) as string;
        response.writeHead(answer.statusCode ?? 502, out);
        response.end(body);
      });
      answer.on('error', (error) => badGateway(response, error.message));
    },
  );
  outgoing.on('error', (error) => {
    if (!response.headersSent) badGateway(response, `Prism's proxy did not answer (${error.message})`);
    else response.destroy();
  });
  incoming.pipe(outgoing);
}

/** Listens on `port`/`host`; rejects on a listen error (EADDRINUSE...), which runGuarded words. */
export async function startRewritingForwarder(
  options: ForwarderOptions,
  port: number,
  host: string,
): Promise<Server> {
  const server = createServer((incoming, response) => void forward(options, incoming, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

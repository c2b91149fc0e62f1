/**
 * Requests a browser or an attacker sends and fetch will not: any `Host`, headers a proxy adds, a body
 * sent in part and held. Over node:http and raw sockets, to a simulator on loopback.
 */
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface Probe {
  method?: string;
  host?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface ProbeAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the members of the answers they check
  json: any;
}

/** One request to `base` + `path` with the `Host` (and headers) given. */
export function probe(base: string, path: string, options: Probe = {}): Promise<ProbeAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path,
        method: options.method ?? 'GET',
        headers: { ...(options.host && { host: options.host }), ...options.headers },
        agent: false,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: answer.statusCode ?? 0, headers: answer.headers, text, json });
        });
      },
    );
    sent.on('error', reject);
    sent.end(options.body);
  });
}

/** A raw connection: writes, then collects what comes back until told or until the server closes. */
export interface RawConnection {
  socket: Socket;
  write(text: string | Buffer): void;
  /** Resolves with everything received once it holds `marker` (or rejects when the socket closes first). */
  until(marker: string): Promise<string>;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
  received(): string;
}

export function rawConnection(base: string): Promise<RawConnection> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = '';
    const waiters: (() => void)[] = [];
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      for (const wake of waiters.splice(0)) wake();
    });
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('error', () => undefined);
    socket.once('connect', () =>
      resolve({
        socket,
        write: (data) => socket.write(data),
        received: () => text,
        closed,
        until(marker) {
          return new Promise((done, fail) => {
            const check = () => {
              if (text.includes(marker)) return done(text);
              if (socket.destroyed) return fail(new Error(`closed before "${marker}": ${text}`));
              waiters.push(check);
            };
            void closed.then(() => (text.includes(marker) ? done(text) : fail(new Error(`closed: ${text}`))));
            check();
          });
        },
      }),
    );
    socket.once('error', reject);
  });
}

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

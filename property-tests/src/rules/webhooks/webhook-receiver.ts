/**
 * The suite's own webhook receiver: one node:http server per process (default 127.0.0.1, any port; the
 * config's `receiver` says where, and which URL is announced), started on first use and unreferenced
 * (it never keeps the process alive). Each run opens a channel, a path of its
 * own that the target is configured to deliver to, which keeps every request it gets and can answer 500
 * to the first attempts of each event (WEBHOOK-RETRY). Unknown paths are answered 200 and dropped.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isObject, type JsonObject } from '../../../../openapi/document/json.js';
import type { ReceiverConfig } from '../../target/target-config.js';

/** One request the receiver got. */
export interface Delivery {
  method: string;
  /** The request path (the channel's). */
  path: string;
  /** Header names lower-case. */
  headers: Record<string, string>;
  text: string;
  /** The body when it is a JSON object. */
  payload: JsonObject | undefined;
  /** What the receiver answered. */
  status: number;
}

export interface Channel {
  /** The URL the target delivers to. */
  url: string;
  /** Every request of this channel, in arrival order. */
  readonly deliveries: Delivery[];
  /** WEBHOOK-RETRY: answer 500 to the first `times` attempts of each event (by `webhook_id`, or its body). */
  failEach(times: number): void;
  /** Forgets the channel: later requests to its path are answered 200 and dropped. */
  close(): void;
}

const LOOPBACK: ReceiverConfig = { host: '127.0.0.1', port: 0, url: null };
const PREFIX = '/ofkit-webhooks/';

interface ChannelState {
  channel: Channel;
  failures: number;
  /** Attempts seen per event key. */
  seen: Map<string, number>;
}

let started: Promise<{ server: Server; base: string }> | undefined;
const channels = new Map<string, ChannelState>();
let opened = 0;

function parse(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** 500 while the event has had fewer than `failures` attempts, else 200. */
function answerFor(state: ChannelState, text: string, payload: JsonObject | undefined): number {
  const key = typeof payload?.webhook_id === 'string' ? payload.webhook_id : text;
  const attempts = (state.seen.get(key) ?? 0) + 1;
  state.seen.set(key, attempts);
  return attempts <= state.failures ? 500 : 200;
}

function receive(request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
  });
  request.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    const path = request.url ?? '';
    const state = channels.get(path);
    const payload = parse(text);
    const status = state ? answerFor(state, text, payload) : 200;
    const method = request.method ?? '';
    state?.channel.deliveries.push({ method, path, headers: headersOf(request), text, payload, status });
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(status === 200 ? '{}' : '{"error":"failing on purpose (WEBHOOK-RETRY)"}');
  });
}

/** `http://host:port` as listening (IPv6 in brackets), or the announced public URL. */
function baseOf(where: ReceiverConfig, port: number): string {
  if (where.url !== null) return where.url.replace(/\/+$/, '');
  const host = where.host.includes(':') ? `[${where.host}]` : where.host;
  return `http://${host}:${port}`;
}

/** The receiver listens where the first run asks (`--receiver-host`, `--receiver-url`, config `receiver`). */
function start(where: ReceiverConfig): Promise<{ server: Server; base: string }> {
  started ??= new Promise((resolve, reject) => {
    const server = createServer(receive);
    server.keepAliveTimeout = 1000;
    server.on('connection', (socket) => {
      socket.unref();
    });
    server.once('error', reject);
    server.listen(where.port, where.host, () => {
      server.unref();
      const { port } = server.address() as AddressInfo;
      resolve({ server, base: baseOf(where, port) });
    });
  });
  return started;
}

/** A new channel of the receiver (started on first use). */
export async function openChannel(where: ReceiverConfig = LOOPBACK): Promise<Channel> {
  const { base } = await start(where);
  opened += 1;
  const path = `${PREFIX}${process.pid}-${opened}/`;
  const channel: Channel = {
    url: `${base}${path}`,
    deliveries: [],
    failEach(times) {
      state.failures = times;
    },
    close() {
      channels.delete(path);
    },
  };
  const state: ChannelState = { channel, failures: 0, seen: new Map() };
  channels.set(path, state);
  return channel;
}

/** Stops the receiver (tests' clean-up; the CLI leaves it to the process's end). */
export async function closeWebhookReceiver(): Promise<void> {
  const running = started;
  started = undefined;
  channels.clear();
  if (!running) return;
  const { server } = await running;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

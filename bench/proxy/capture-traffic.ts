/**
 * Traffic for the recording's own cost: the bench simulator (in this process, seeded as the bench
 * seeds it) answers a short client session over node:http, and each exchange is kept as the recording
 * proxy hands it to the recording's worker (the client's headers, the answer's raw headers, the bodies
 * as the chunks they came in). The session holds what the redaction and the checks meet: a Basic key,
 * credentials in a JSON body, a form body and a query, a cookie, a wrong secret, records with personal
 * members, the page of 100 transactions a client reads most and the page after it.
 */
import { request } from 'node:http';
import type { HeaderList, ProxiedExchange } from '../../bridge/src/exchange/exchange.js';
import { headerListOf } from '../../bridge/src/exchange/exchange.js';
import { startBenchSimulator } from '../servers/bench-simulator.js';
import {
  ACCOUNTS,
  BASIC_AUTH,
  LINK_BODY,
  LINKS,
  seedLinkWithTransactions,
  TRANSACTIONS,
} from '../servers/seed-data.js';

export interface CapturedTraffic {
  /** Every exchange of the session, in order. */
  exchanges: ProxiedExchange[];
  /** The index of the page of 100 transactions among them. */
  pageIndex: number;
}

interface Call {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One call to `origin`, as the proxy would hand it on. */
function exchangeOf(origin: string, call: Call): Promise<ProxiedExchange> {
  const target = new URL(call.path, origin);
  const sent: Record<string, string> = {
    host: target.host,
    authorization: BASIC_AUTH,
    ...call.headers,
    ...(call.body !== undefined && { 'content-length': String(Buffer.byteLength(call.body)) }),
  };
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(target, { method: call.method, headers: sent }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.once('error', reject);
      answer.once('end', () =>
        resolve({
          startedAt: new Date(started).toISOString(),
          durationMs: Date.now() - started,
          request: {
            method: call.method,
            url: target.href,
            headers: Object.entries(sent) as HeaderList,
            ...(call.body !== undefined && { bodyChunks: [Buffer.from(call.body)] }),
          },
          response: {
            status: answer.statusCode ?? 0,
            statusText: answer.statusMessage ?? '',
            headers: headerListOf(answer.rawHeaders),
            ...(chunks.length > 0 && { bodyChunks: chunks }),
          },
        }),
      );
    });
    outgoing.once('error', reject);
    outgoing.end(call.body);
  });
}

const json = { 'content-type': 'application/json' };

/** Starts the bench simulator, runs the session against it, stops it. */
export async function captureTraffic(): Promise<CapturedTraffic> {
  const started = await startBenchSimulator();
  try {
    const seeded = await seedLinkWithTransactions(started.simulator, 150);
    const page = `${TRANSACTIONS}?link=${seeded.linkId}&page_size=100`;
    const calls: Call[] = [
      { method: 'POST', path: LINKS, headers: json, body: JSON.stringify(LINK_BODY) },
      {
        method: 'POST',
        path: LINKS,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'session=a1b2c3d4e5' },
        body: `institution=ofbank_br_retail&username=${LINK_BODY.username}&password=form-pass-4821`,
      },
      { method: 'GET', path: `${LINKS}?password=query-pass-5512` },
      { method: 'GET', path: LINKS, headers: { authorization: `${BASIC_AUTH.slice(0, -4)}AAAA` } },
      { method: 'POST', path: ACCOUNTS, headers: json, body: JSON.stringify({ link: seeded.linkId }) },
      { method: 'GET', path: page },
      { method: 'GET', path: `${page}&page=2` },
      // Last: a credential holding `,` (the character between two pieces of a long body) once known.
      { method: 'GET', path: `${LINKS}?password=late,comma-7781` },
    ];
    const exchanges: ProxiedExchange[] = [];
    for (const call of calls) exchanges.push(await exchangeOf(started.url, call));
    return { exchanges, pageIndex: calls.findIndex((call) => call.path === page) };
  } finally {
    await started.close();
  }
}

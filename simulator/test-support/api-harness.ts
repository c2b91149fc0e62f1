/**
 * The webhook tests through the HTTP API: the contract-checked simulator (every response, the control
 * API's included, validated against its document), a real receiver, and short-hands for the calls.
 */

import type { EventRecord } from '../src/webhooks/event-log.js';
import {
  type CallResult,
  type CheckedSimulator,
  contractCheckedSimulator,
} from './contract-checked-simulator.js';
import { startReceiver, type TestReceiver } from './test-receiver.js';

export interface ApiHarness {
  sim: CheckedSimulator;
  receiver: TestReceiver;
  /** PUT /_ofkit/webhooks/ delivering to the receiver, with `config` on top. */
  configure(config?: Record<string, unknown>): Promise<CallResult>;
  /** POST /api/links/ (ofbank_br_retail unless `body` says otherwise); the created link. */
  register(body?: Record<string, unknown>): Promise<{ id: string; [field: string]: unknown }>;
  /** GET /_ofkit/events/ once the deliveries in flight are done. */
  events(query?: Record<string, string>): Promise<EventRecord[]>;
  /** POST /_ofkit/clock/advance/, then waits for the deliveries the due jobs started. */
  advance(seconds: number): Promise<void>;
  close(): Promise<void>;
}

/** A Mexican RFC and a Brazilian CPF the institutions' form fields accept. */
export const USERNAMES: Readonly<Record<string, string>> = {
  ofbank_br_retail: '76109277673',
  ofsat_mx_fiscal: 'ABCD123456XY1',
};

export async function apiHarness(answer?: (n: number) => number | 'hang'): Promise<ApiHarness> {
  const sim = await contractCheckedSimulator();
  const receiver = await startReceiver(answer);
  const idle = () => sim.simulator.webhooks.idle();
  return {
    sim,
    receiver,
    configure: (config = {}) =>
      sim.call('PUT', '/_ofkit/webhooks/', { body: { url: receiver.url, ...config } }),
    async register(body = {}) {
      const institution = String(body.institution ?? 'ofbank_br_retail');
      const created = await sim.call('POST', '/api/links/', {
        body: { institution, username: USERNAMES[institution], password: 'secret', ...body },
      });
      if (created.status !== 201) throw new Error(`registerLink: ${JSON.stringify(created.body)}`);
      return created.body;
    },
    async events(query = {}) {
      await idle();
      return (await sim.call('GET', '/_ofkit/events/', { query })).body;
    },
    async advance(seconds) {
      await sim.call('POST', '/_ofkit/clock/advance/', { body: { seconds } });
      await idle();
    },
    async close() {
      await sim.simulator.webhooks.close();
      await receiver.close();
    },
  };
}

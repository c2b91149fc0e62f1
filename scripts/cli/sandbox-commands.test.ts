/**
 * `ofkit trigger`, `ofkit link-status` and `ofkit create-link` as a user runs them: child processes
 * against a simulator on a free port (its answers checked against the documents), a real receiver.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';
import { contractCheckedExchange } from '../../simulator/test-support/contract-checked-simulator.js';
import { startReceiver, type TestReceiver } from '../../simulator/test-support/test-receiver.js';
import { runOfkit } from '../test-support/cli-process.js';

let started: StartedSimulator;
let receiver: TestReceiver;
let scratch: string;
const violations: string[] = [];
/** The observer marker of every control call the commands made (the judge skips those requests). */
const markers: (string | undefined)[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  const check = contractCheckedExchange(violations)!;
  started = await startSimulator({
    seed: 'cli-sandbox',
    tickMs: 0,
    onExchange: (request, response) => {
      if (request.path.startsWith('/_ofkit/links/')) markers.push(request.headers['x-ofkit-client']);
      check(request, response);
    },
  });
  await started.control.request('PUT', 'webhooks/', { url: receiver.url, bearer_token: 's3cr3t' });
  scratch = mkdtempSync(join(tmpdir(), 'ofkit-sandbox-cli-'));
}, 60_000);
afterAll(async () => {
  await started?.close();
  await receiver?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const target = () => ['--url', started.url, '--keys', 'ofkit-key-a:ofkit-secret-a'];

describe('ofkit create-link, trigger, link-status against a running simulator', () => {
  it('create-link prints the new link`s id; trigger delivers an event; link-status makes it invalid', async () => {
    const file = join(scratch, 'link.json');
    const description = {
      institution: 'ofbank_br_retail',
      access_mode: 'recurrent',
      accounts: [
        { name: 'Conta', transactions: [{ description: 'Padaria', amount: 18.5, type: 'OUTFLOW' }] },
      ],
    };
    writeFileSync(file, JSON.stringify(description));
    const created = await runOfkit(['create-link', file, ...target()]);
    expect(created.stderr).toBe('');
    const [id, held] = created.stdout.trim().split('\n');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(held).toBe('ofbank_br_retail: 1 accounts, 1 transactions');

    const fired = await runOfkit(['trigger', 'transactions_historical_update', '--link', id!, ...target()]);
    expect(fired.code).toBe(0);
    expect(fired.stdout).toMatch(/^TRANSACTIONS historical_update \(event [0-9a-f]{32}\): HTTP 200$/m);
    await started.simulator.webhooks.idle();
    const last = receiver.received.at(-1);
    expect(last?.body).toMatchObject({ webhook_code: 'historical_update', data: { total_transactions: 1 } });
    expect(last?.headers.authorization).toBe('Bearer s3cr3t');

    const status = await runOfkit(['link-status', 'invalid', '--link', id!, '--json', ...target()]);
    expect(JSON.parse(status.stdout)).toMatchObject({ link: { id, status: 'invalid' }, note: null });
    expect(markers.length).toBe(3);
    expect(new Set(markers)).toEqual(new Set(['dashboard']));
    expect(violations).toEqual([]);
  }, 60_000);

  it('a refused request, an unknown event or link is one line and exit code 2', async () => {
    const unknown = await runOfkit(['trigger', 'transactions_updatd', '--link', 'x', ...target()]);
    expect(unknown).toMatchObject({
      code: 2,
      stderr:
        'ofkit trigger: unknown event "transactions_updatd": did you mean transactions_updated? (ofkit trigger --help)\n',
    });
    const missing = await runOfkit([
      'trigger',
      'link_deleted',
      '--link',
      '30cb4806-6e00-48a4-91c9-ca55968576c8',
      ...target(),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^ofkit trigger: 404 not_found: No link 30cb4806-.* in \/api\/links\/\.\n$/,
    );
  }, 60_000);
});

/**
 * What a broken rule does to the parts around it: a secret let in by a broken AUTH-BASIC is still
 * masked in the judge's log (CLIENT-NO-SECRETS), and a simulator that is already running (ofkit exec's)
 * cannot be asked to break a rule by attaching to it. Every response is checked against the document.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createContractCheck, TEST_KEYS } from '../../test-support/contract-checked-simulator.js';
import { standInForExec } from '../../test-support/exec-stand-in.js';
import { SimulatorAttachError } from '../connect-simulator.js';
import { REQUEST_LOG } from '../judge/request-log.js';
import { createSimulator } from '../simulator.js';
import { type StartedSimulator, startSimulator } from '../start-simulator.js';
import { MemoryStore } from '../store/memory-store.js';

const KEY = TEST_KEYS[0]!;

describe('CLIENT-NO-SECRETS beside a broken AUTH-BASIC', () => {
  it('CLIENT-NO-SECRETS: a secret the key does not have, let in by a broken AUTH-BASIC, is masked too', async () => {
    const store = new MemoryStore();
    const wrong = 'not-the-secret';
    const basic = Buffer.from(`${KEY.secretId}:${wrong}`).toString('base64');
    const simulator = await createSimulator({
      seed: 'judge-log',
      environment: 'production',
      keys: TEST_KEYS,
      store,
      brokenRules: ['AUTH-BASIC'],
    });
    const url = new URL(`/api/institutions/?secret=${wrong}`, 'http://127.0.0.1:4010');
    const response = await simulator.handle({
      method: 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: { authorization: `Basic ${basic}` },
      body: '',
      origin: 'http://127.0.0.1:4010',
    });
    createContractCheck(simulator.document)('GET', url.pathname, response, url.searchParams);
    expect(response.status).toBe(200);
    const [stored] = (await store.readLog(KEY.secretId, REQUEST_LOG, 0, 10)).entries;
    expect(stored?.entry).toContain('secret=$OFKIT_SECRET');
    expect(stored?.entry).toContain('"query"');
    expect(stored?.entry).not.toContain(wrong);
  });
});

describe("attaching to ofkit exec's simulator", () => {
  let exec: StartedSimulator | undefined;
  afterEach(async () => {
    vi.unstubAllEnvs();
    await exec?.close();
    exec = undefined;
  });

  it('refuses brokenRules in one line: the simulator is already running', async () => {
    exec = await standInForExec();
    const attaching = startSimulator({ attach: true, brokenRules: ['PAGE-NAV'] });
    await expect(attaching).rejects.toThrow(SimulatorAttachError);
    await expect(attaching).rejects.toThrow(
      /^startSimulator\(\{ attach: true \}\): brokenRules cannot apply to .*, already running/,
    );
    await expect(attaching).rejects.not.toThrow(/\n/);
  });
});

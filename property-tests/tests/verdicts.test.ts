/**
 * Verdicts that mean what they say: refused or empty keys stop the run before any rule
 * (exit 2); a catch-all server is no control API (its rules are skipped with the reason) and proves
 * nothing (RESP-DEPRECATED inconclusive, a failure under --strict); the coverage gate fails a run
 * below its thresholds; a server that leaks one key's data to another fails AUTH-TENANT.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadApiDocument } from '../../openapi/document/api-document.js';
import {
  type RunningServer,
  startAlteringProxy,
  startCatchAll,
} from '../../tests/test-support/altering-proxy.js';
import { allRules } from '../src/rules/index.js';
import { runSuite } from '../src/runner/run-suite.js';
import { selectRules } from '../src/runner/select-rules.js';
import { parseTargetConfig } from '../src/target/target-config.js';
import { runCheck } from './check-output.js';
import { outcome, type SimulatorTarget, startSimulatorTarget } from './simulator-target.js';

const document = loadApiDocument();
let simulator: SimulatorTarget;
let catchAll: RunningServer;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  simulator = await startSimulatorTarget();
  catchAll = await startCatchAll();
}, 60_000);

afterAll(async () => {
  await catchAll.stop();
  await simulator.stop();
});

afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

async function results(
  baseUrl: string,
  rules: string[],
  { keys, strict }: { keys?: string[]; strict?: boolean } = {},
) {
  const config = parseTargetConfig({ baseUrl, ...(keys ? { keys } : {}) });
  const suite = await runSuite({
    config,
    rules: selectRules(allRules(document), rules),
    seed: 14,
    runs: 3,
    document,
    strict: strict ?? false,
  });
  return suite;
}

describe('keys are checked before any rule runs', () => {
  it('wrong keys: exit 2 at once, one line naming the refused key and how to pass keys', async () => {
    const { code, out, err } = await runCheck([
      simulator.baseUrl,
      '--keys',
      'acme:pw',
      '--rules',
      'SCHEMA:*',
    ]);
    expect(code).toBe(2);
    expect(err.split('\n')).toHaveLength(1);
    expect(err).toMatch(/refused the primary key "acme" \(GET \/api\/ answered 401, wanted 200\)/);
    expect(err).toContain('--keys id:secret');
    expect(out).not.toContain('rules:');
  });

  it('a refused second key is named too', async () => {
    const keys = ['ofkit-key-a:ofkit-secret-a', 'ofkit-key-b:nope'];
    const { code, err } = await runCheck([simulator.baseUrl, '--keys', keys[0]!, '--keys', keys[1]!]);
    expect(code).toBe(2);
    expect(err).toContain('refused the second key "ofkit-key-b"');
  });

  it('empty $OFKIT_KEY/$OFKIT_SECRET are an error, never a fall-back to the default keys', async () => {
    vi.stubEnv('OFKIT_KEY', '');
    vi.stubEnv('OFKIT_SECRET', '');
    const { code, err } = await runCheck([simulator.baseUrl, '--rules', 'API-ROOT']);
    expect(code).toBe(2);
    expect(err).toContain('$OFKIT_KEY and $OFKIT_SECRET are empty or unset');
  });
});

describe('a catch-all server (200 {} to everything)', () => {
  it('is no control API: its rules are skipped with the reason; RESP-DEPRECATED is inconclusive', {
    timeout: 60_000,
  }, async () => {
    const suite = await results(catchAll.baseUrl, ['ERR-500-408', 'WEBHOOK-BEARER', 'RESP-DEPRECATED'], {
      keys: ['any:key'],
    });
    expect(suite.capabilities.controlApi).toBe(false);
    expect(suite.capabilities.notes['control-api']).toMatch(/answered 200, but not the control API's Clock/);
    const byId = new Map(suite.results.map((result) => [result.id, result]));
    for (const id of ['ERR-500-408', 'WEBHOOK-BEARER']) {
      expect(byId.get(id)?.status, outcome(byId.get(id)!)).toBe('skipped');
      expect(byId.get(id)?.reason).toMatch(/needs control-api: .*not the control API's Clock/);
    }
    const deprecated = byId.get('RESP-DEPRECATED')!;
    expect(deprecated.status, outcome(deprecated)).toBe('inconclusive');
    expect(deprecated.reached).toBe(0);
    expect(deprecated.reason).toMatch(
      /no run reached the assertion: GET \/api\/.+ answered 200 without records/,
    );
  });

  it('an inconclusive rule fails the run under --strict only', { timeout: 60_000 }, async () => {
    const argv = [catchAll.baseUrl, '--keys', 'any:key', '--rules', 'RESP-DEPRECATED', '--seed', '5'];
    const lenient = await runCheck(argv);
    expect(lenient.code).toBe(0);
    expect(lenient.out).toContain('1 inconclusive');
    vi.restoreAllMocks();
    expect((await runCheck([...argv, '--strict'])).code).toBe(1);
  });
});

describe('--min-coverage', () => {
  it('fails the run (exit 1) below a threshold and passes at or above it', { timeout: 60_000 }, async () => {
    const argv = [simulator.baseUrl, '--rules', 'API-ROOT', '--seed', '5', '--runs', '2'];
    const low = await runCheck([...argv, '--min-coverage', 'operations=90,statuses=10']);
    expect(low.code).toBe(1);
    expect(low.out).toMatch(
      /coverage gate: operations coverage [\d.]+% is below --min-coverage operations=90/,
    );
    expect(low.out).toMatch(/coverage: operations \d+\/147/);
    vi.restoreAllMocks();
    const met = await runCheck([...argv, '--min-coverage', 'operations=0.5']);
    expect(met.code).toBe(0);
    vi.restoreAllMocks();
    expect((await runCheck([...argv, '--min-coverage', 'routes=5'])).code).toBe(2);
  });
});

describe('AUTH-TENANT', () => {
  it('fails a server that shows one key the data of another, and passes the simulator', {
    timeout: 120_000,
  }, async () => {
    const leaky = await startAlteringProxy(simulator.baseUrl, {
      leak: { from: 'ofkit-key-b:ofkit-secret-b', to: 'ofkit-key-a:ofkit-secret-a' },
    });
    stops.push(leaky.stop);
    const [broken] = (await results(leaky.baseUrl, ['AUTH-TENANT'])).results;
    expect(broken?.status, outcome(broken!)).toBe('failed');
    expect(broken?.failure?.message).toMatch(/with the second key/);
    const [intact] = (await results(simulator.baseUrl, ['AUTH-TENANT'])).results;
    expect(intact?.status, outcome(intact!)).toBe('passed');
    expect(intact?.reached).toBeGreaterThan(0);
  });
});

describe('PAGE-MAX above 1000', () => {
  it('fails a server that serves page_size=1500 as 1500 records, and passes the simulator', {
    timeout: 180_000,
  }, async () => {
    const uncapped = await startAlteringProxy(simulator.baseUrl, { uncappedPages: true });
    stops.push(uncapped.stop);
    const [broken] = (await results(uncapped.baseUrl, ['PAGE-MAX'])).results;
    expect(broken?.status, outcome(broken!)).toBe('failed');
    expect(broken?.failure?.message).toMatch(
      /page_size 1\d{3}, at most 1000\) make 1000 records on page \d, not 1\d{3}/,
    );
    const [intact] = (await results(simulator.baseUrl, ['PAGE-MAX'])).results;
    expect(intact?.status, outcome(intact!)).toBe('passed');
    expect(intact?.notes.join(' ')).not.toMatch(/no list holds more than 1000/);
  });
});

describe('a harmless difference', () => {
  it('an undocumented member on every record is a note of the shape row (a failure under --strict), never a behavioural failure', {
    timeout: 120_000,
  }, async () => {
    const extra = await startAlteringProxy(simulator.baseUrl, { extraMember: 'vendor_extension' });
    stops.push(extra.stop);
    const behavioural = ['LINK-REFRESH-COOLDOWN', 'LINK-REGISTER', 'DATA-DETAIL', 'TAX-RETURNS-MIXED'];
    const suite = await results(extra.baseUrl, [...behavioural, 'PAGE-DEFAULT', 'SCHEMA:getLink']);
    const byId = new Map(suite.results.map((result) => [result.id, result]));
    for (const id of [...behavioural, 'PAGE-DEFAULT']) {
      expect(byId.get(id)?.status, outcome(byId.get(id)!)).toBe('passed');
    }
    // Responses are open (the provider adds members over time): the shape row notes the member...
    const shape = byId.get('SCHEMA:getLink')!;
    expect(shape.status, outcome(shape)).toBe('passed');
    expect(shape.notes.join(' ')).toContain('vendor_extension');
    // ... and fails on it only under --strict.
    const strict = await results(extra.baseUrl, ['SCHEMA:getLink'], { strict: true });
    const strictShape = strict.results[0]!;
    expect(strictShape.status, outcome(strictShape)).toBe('failed');
    expect(strictShape.failure?.message).toMatch(/vendor_extension/);
  });
});

/** Optional members the document marks deprecated (RESP-DEPRECATED: clients must not rely on them). */
function optionalDeprecatedMembers(): string[] {
  const deprecated = new Set<string>();
  const required = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(walk);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const node = value as { properties?: Record<string, { deprecated?: boolean }>; required?: string[] };
    for (const [name, schema] of Object.entries(node.properties ?? {}))
      if (schema?.deprecated) deprecated.add(name);
    for (const name of Array.isArray(node.required) ? node.required : []) required.add(name);
    Object.values(value).forEach(walk);
  };
  walk(document.raw);
  return [...deprecated].filter((name) => !required.has(name));
}

describe('harmless differences', () => {
  it('members in another order, optional deprecated members left out and chunked bodies pass, under --strict too', {
    timeout: 180_000,
  }, async () => {
    const omitted = optionalDeprecatedMembers();
    expect(omitted).toContain('last_payment_date');
    const different = await startAlteringProxy(simulator.baseUrl, {
      reversedMembers: true,
      omittedMembers: omitted,
      chunked: true,
    });
    stops.push(different.stop);
    const rules = [
      ...['LINK-REGISTER', 'LINK-MFA-428', 'DATA-RETRIEVE', 'DATA-DETAIL', 'TAX-RETURNS-MIXED'],
      ...['PAGE-DEFAULT', 'PAGE-NAV', 'FILTER-LOOKUP', 'ERR-BODY', 'MODEL-LINK-LIFECYCLE'],
      ...['SCHEMA:getAccount', 'SCHEMA:listOwners', 'SCHEMA:listInvoices', 'SCHEMA:getLink'],
    ];
    const suite = await results(different.baseUrl, rules, { strict: true });
    expect(suite.results.filter((r) => r.status !== 'passed').map(outcome)).toEqual([]);
    expect(suite.results).toHaveLength(rules.length);
  });
});

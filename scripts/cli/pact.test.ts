import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { pact } from './pact.js';

let errors: MockInstance<typeof console.error>;
beforeEach(() => {
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  errors.mockRestore();
  vi.unstubAllEnvs();
});

describe('ofkit pact usage errors: one line, exit code 2', () => {
  it('check-spec without a pacts/ folder: says so, no ENOENT', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'ofkit-pact-')), 'pacts/');
    expect(await pact(['check-spec', missing])).toBe(2);
    expect(errors.mock.calls).toEqual([
      [
        `ofkit pact: no pact file or folder at ${missing} (name the pacts your consumer tests wrote, e.g. pacts/) (ofkit pact --help)`,
      ],
    ]);
  });

  it('verify with $OFKIT_KEY and $OFKIT_SECRET both empty: says both are empty', async () => {
    vi.stubEnv('OFKIT_KEY', '');
    vi.stubEnv('OFKIT_SECRET', '');
    expect(await pact(['verify', 'http://127.0.0.1:9', '--pacts', 'contracts/pacts'])).toBe(2);
    expect(errors.mock.calls).toEqual([
      [
        'ofkit pact: $OFKIT_KEY and $OFKIT_SECRET are both empty: pass --keys id:secret, or set both variables to a key the provider accepts (ofkit pact --help)',
      ],
    ]);
  });

  it("an unknown option: ofkit's line with the closest option, not Node's parseArgs text", async () => {
    expect(await pact(['verify', 'http://127.0.0.1:9', '--pact', 'pacts/'])).toBe(2);
    expect(errors.mock.calls).toEqual([
      ['ofkit pact: unknown option --pact: did you mean --pacts? (ofkit pact --help)'],
    ]);
  });
});

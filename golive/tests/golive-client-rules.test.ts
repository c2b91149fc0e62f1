/**
 * The go-live items the client rules of a go-live review decide, each caught on a client with that one
 * mistake: the careful example's request ids hidden from golive (REQUEST-IDS with risks), then read from
 * the file it logs to (`--client-log`, Ready); a client that registers its end-user twice and retrieves
 * a link gone invalid twice without new credentials (NO-DUPLICATES and BROKEN-LINKS Not ready).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GoliveBundle } from '../src/index.js';
import { type GoliveShell, goliveShell } from '../test-support/golive-shell.js';

const CAREFUL = join(import.meta.dirname, '..', '..', 'examples/golive/careful-client.mjs');

/** Registers the same end-user twice, moves the API's clock a day, retrieves each link twice, never PUTs. */
const CARELESS_LINKS = `
const { OFKIT_URL, OFKIT_KEY, OFKIT_SECRET, OFKIT_CONTROL_URL } = process.env;
const headers = {
  authorization: 'Basic ' + Buffer.from(OFKIT_KEY + ':' + OFKIT_SECRET).toString('base64'),
  'content-type': 'application/json',
};
const call = async (url, body) => fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
const register = async () => {
  const body = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret', access_mode: 'recurrent' };
  return (await (await call(OFKIT_URL + '/api/links/', body)).json()).id;
};
const links = [await register(), await register()];
await call(OFKIT_CONTROL_URL + 'clock/advance/', { seconds: 86400 });
for (const link of links)
  for (let time = 0; time < 2; time += 1) {
    const answer = await call(OFKIT_URL + '/api/accounts/', { link });
    console.log('accounts of ' + link + ': ' + answer.status);
  }
`;

let folder: GoliveShell;
beforeAll(() => {
  folder = goliveShell();
  writeFileSync(join(folder.dir, 'careless-links.mjs'), CARELESS_LINKS);
});
afterAll(() => folder.remove());

const bundleOf = (out: string) =>
  JSON.parse(readFileSync(join(folder.dir, out, 'golive.json'), 'utf8')) as GoliveBundle;
const item = (bundle: GoliveBundle, id: string) => bundle.items.find((entry) => entry.item === id);
const FAILURES = '--situations credentials-refused,institution-failing --judge-timing order-only';

describe('REQUEST-IDS: the request_id of each failure left behind, in the client output', () => {
  it('is Ready with risks when the output golive reads lacks them, with the failed request', {
    timeout: 120_000,
  }, () => {
    const run = folder.run(`ofkit golive ${FAILURES} --out hidden -- sh -c 'node ${CAREFUL} > /dev/null'`);
    expect(run.code).toBe(0);
    const found = item(bundleOf('hidden'), 'REQUEST-IDS');
    expect(found?.verdict).toBe('ready_with_risks');
    expect(found?.findings[0]).toMatchObject({
      kind: 'warning',
      rule: 'CLIENT-REQUEST-IDS-LOGGED',
      situation: 'credentials-refused',
    });
    expect(found?.findings[0]?.evidence.join('\n')).toMatch(/\/api\/links\/.*# -> 400/);
    expect(run.stdout).toMatch(/REQUEST-IDS\s+Ready with risks\s+CLIENT-REQUEST-IDS-LOGGED warned of/);
  });

  it('is Ready when they are in the file given as --client-log', { timeout: 120_000 }, () => {
    const line = `ofkit golive ${FAILURES} --client-log client.log --out logged -- sh -c 'node ${CAREFUL} >> client.log'`;
    expect(folder.run(line).code).toBe(0);
    expect(item(bundleOf('logged'), 'REQUEST-IDS')).toMatchObject({ verdict: 'ready', findings: [] });
  });
});

describe('NO-DUPLICATES and BROKEN-LINKS', () => {
  it('are Not ready for a client that registers its end-user twice and uses an invalid link twice', {
    timeout: 120_000,
  }, () => {
    const run = folder.run(
      'ofkit golive --situations baseline,link-turns-invalid --out links -- node careless-links.mjs',
    );
    expect(run.code).toBe(1);
    const bundle = bundleOf('links');
    expect(item(bundle, 'NO-DUPLICATES')?.verdict).toBe('not_ready');
    expect(item(bundle, 'NO-DUPLICATES')?.findings[0]).toMatchObject({
      kind: 'violated',
      rule: 'CLIENT-NO-DUPLICATE-LINKS',
    });
    const broken = item(bundle, 'BROKEN-LINKS');
    expect(broken?.verdict).toBe('not_ready');
    expect(broken?.findings.map((f) => [f.kind, f.rule ?? f.situation])).toEqual(
      expect.arrayContaining([
        ['violated', 'CLIENT-UPDATE-MODE'],
        ['not_met', 'link-turns-invalid'],
      ]),
    );
  });
});

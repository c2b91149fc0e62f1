/**
 * The go-live items the client rules of a go-live review decide, each caught on a client with that one
 * mistake: the careful example's request ids hidden from golive (REQUEST-IDS with risks), then read from
 * the file it logs to (`--client-log`, Ready); a client that registers its end-user twice and retrieves
 * a link gone invalid twice without new credentials (NO-DUPLICATES and BROKEN-LINKS Not ready); a client
 * that refuses members its version of the interface does not know, Ready in the baseline and failing in
 * the forward-compatibility storm (FORWARD-COMPAT Not ready), where the careful example is Ready; a
 * client that reads two pages of a long list and stops (STATUSES-PAGINATION Not ready). The workers of
 * the late deliveries and of a recurrent link's life: golive-worker-situations.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type GoliveShell, goliveShell, itemOf } from '../test-support/golive-shell.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CAREFUL = join(ROOT, 'examples/golive/careful-client.mjs');

/** The members of a link this version of the interface documents. */
const LINK_MEMBERS = Object.keys(
  parse(readFileSync(join(ROOT, 'openapi/schemas/links.yaml'), 'utf8')).Link.properties,
);

/** Registers a link and exits 1 on a member of the answer it does not know: a closed object. */
const STRICT_CLIENT = `
const { OFKIT_URL, OFKIT_KEY, OFKIT_SECRET } = process.env;
const known = new Set(${JSON.stringify(LINK_MEMBERS)});
const answer = await fetch(OFKIT_URL + '/api/links/', {
  method: 'POST',
  headers: {
    authorization: 'Basic ' + Buffer.from(OFKIT_KEY + ':' + OFKIT_SECRET).toString('base64'),
    'content-type': 'application/json',
  },
  body: JSON.stringify({ institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' }),
});
const unknown = Object.keys(await answer.json()).filter((member) => !known.has(member));
if (unknown.length > 0) {
  console.error('unknown members in the link: ' + unknown.join(', '));
  process.exit(1);
}
`;

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

/** Lists a year of a recurrent link's transactions: the first page, the next one through `next`, no more. */
const TWO_PAGES_CLIENT = `
const { OFKIT_URL, OFKIT_KEY, OFKIT_SECRET } = process.env;
const headers = {
  authorization: 'Basic ' + Buffer.from(OFKIT_KEY + ':' + OFKIT_SECRET).toString('base64'),
  'content-type': 'application/json',
};
const post = async (path, body) =>
  (await fetch(OFKIT_URL + path, { method: 'POST', headers, body: JSON.stringify(body) })).json();
const link = await post('/api/links/', {
  institution: 'ofbank_br_retail', username: '76109277673', password: 'secret', access_mode: 'recurrent',
});
await post('/api/transactions/', { link: link.id, date_from: '2025-11-01', date_to: '2026-10-31' });
const first = await (await fetch(OFKIT_URL + '/api/transactions/?link=' + link.id, { headers })).json();
const second = await (await fetch(first.next, { headers })).json();
console.log((first.results.length + second.results.length) + ' transactions: all of them, it thinks');
`;

let folder: GoliveShell;
beforeAll(() => {
  folder = goliveShell();
  writeFileSync(join(folder.dir, 'careless-links.mjs'), CARELESS_LINKS);
  writeFileSync(join(folder.dir, 'strict-client.mjs'), STRICT_CLIENT);
  writeFileSync(join(folder.dir, 'two-pages.mjs'), TWO_PAGES_CLIENT);
});
afterAll(() => folder.remove());

const FAILURES = '--situations credentials-refused,institution-failing --judge-timing order-only';

describe('REQUEST-IDS: the request_id of each failure left behind, in the client output', () => {
  it('is Ready with risks when the output golive reads lacks them, with the failed request', {
    timeout: 120_000,
  }, () => {
    const run = folder.run(`ofkit golive ${FAILURES} --out hidden -- sh -c 'node ${CAREFUL} > /dev/null'`);
    expect(run.code).toBe(0);
    const found = itemOf(folder.bundle('hidden'), 'REQUEST-IDS');
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
    expect(itemOf(folder.bundle('logged'), 'REQUEST-IDS')).toMatchObject({ verdict: 'ready', findings: [] });
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
    const bundle = folder.bundle('links');
    expect(itemOf(bundle, 'NO-DUPLICATES')?.verdict).toBe('not_ready');
    expect(itemOf(bundle, 'NO-DUPLICATES')?.findings[0]).toMatchObject({
      kind: 'violated',
      rule: 'CLIENT-NO-DUPLICATE-LINKS',
    });
    const broken = itemOf(bundle, 'BROKEN-LINKS');
    expect(broken?.verdict).toBe('not_ready');
    expect(broken?.findings.map((f) => [f.kind, f.rule ?? f.situation])).toEqual(
      expect.arrayContaining([
        ['violated', 'CLIENT-UPDATE-MODE'],
        ['not_met', 'link-turns-invalid'],
      ]),
    );
  });
});

describe('FORWARD-COMPAT: the client in the storm as in the baseline', () => {
  const situations = '--situations baseline,forward-compat-storm --judge-timing order-only';

  it('is Ready for the careful example', { timeout: 120_000 }, () => {
    expect(folder.run(`ofkit golive ${situations} --out storm-careful -- node ${CAREFUL}`).code).toBe(0);
    expect(itemOf(folder.bundle('storm-careful'), 'FORWARD-COMPAT')).toMatchObject({
      verdict: 'ready',
      findings: [],
    });
  });

  it('is Not ready for a client that refuses members it does not know', { timeout: 120_000 }, () => {
    const run = folder.run(`ofkit golive ${situations} --out storm-strict -- node strict-client.mjs`);
    expect(run.code).toBe(1);
    const bundle = folder.bundle('storm-strict');
    expect(bundle.situations.map((r) => [r.situation, r.exitCode])).toEqual([
      ['baseline', 0],
      ['forward-compat-storm', 1],
    ]);
    const found = itemOf(bundle, 'FORWARD-COMPAT');
    expect(found?.verdict).toBe('not_ready');
    expect(found?.findings[0]).toMatchObject({ kind: 'failed', situation: 'forward-compat-storm' });
    expect(found?.findings[0]?.evidence.join('\n')).toContain('unknown members in the link');
  });
});

describe('STATUSES-PAGINATION: a list read to its end', () => {
  it('is Not ready for a client that follows next once and stops, pages it read well', {
    timeout: 120_000,
  }, () => {
    const run = folder.run('ofkit golive --situations many-pages --out two-pages -- node two-pages.mjs');
    expect(run.code).toBe(1);
    const bundle = folder.bundle('two-pages');
    const pages = bundle.situations[0]!;
    expect(pages.evidence.verdicts.find((v) => v.rule === 'CLIENT-PAGINATION-NEXT')?.verdict).toBe(
      'followed',
    );
    expect(pages.conditions).toEqual([
      { condition: 'the client judge exercised CLIENT-PAGINATION-NEXT', holds: true },
      { condition: 'a list read through next to the page whose next is null', holds: false },
    ]);
    expect(itemOf(bundle, 'STATUSES-PAGINATION')?.findings[0]).toMatchObject({
      kind: 'not_met',
      situation: 'many-pages',
    });
  });
});

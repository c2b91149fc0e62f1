/**
 * The situations of a long-running worker, each caught on a worker with one mistake: one that ends half a
 * second after the last delivery, before the deliveries held back come (WEBHOOKS Not ready:
 * webhooks-delayed-interleaved never met), and one that lives through a recurrent link's days to golive's
 * end signal but retrieves the link again each time it breaks (BROKEN-LINKS Not ready in recurrent-life).
 * The careful example meets both (golive-examples.test.ts runs it under every situation).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GoliveShell, goliveShell, itemOf } from '../test-support/golive-shell.js';

/** The worker's head: its credentials, a call of the API, a receiver on a free port configured. */
const WORKER_HEAD = `
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
const { OFKIT_URL, OFKIT_KEY, OFKIT_SECRET, OFKIT_CONTROL_URL, OFKIT_LIFE_ENDED_FILE } = process.env;
const headers = {
  authorization: 'Basic ' + Buffer.from(OFKIT_KEY + ':' + OFKIT_SECRET).toString('base64'),
  'content-type': 'application/json',
};
const call = (method, url, body) => fetch(url, { method, headers, ...(body && { body: JSON.stringify(body) }) });
const sleep = (ms) => new Promise((wake) => setTimeout(wake, ms));
let lastDelivery = Date.now();
const onEvent = [];
const server = createServer((request, response) => {
  let text = '';
  request.on('data', (chunk) => { text += chunk; });
  request.on('end', () => {
    lastDelivery = Date.now();
    response.writeHead(200).end();
    for (const handle of onEvent) handle(JSON.parse(text));
  });
});
await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
await call('PUT', OFKIT_CONTROL_URL + 'webhooks/', { url: 'http://127.0.0.1:' + server.address().port + '/' });
const register = async () => {
  const body = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret', access_mode: 'recurrent' };
  return (await (await call('POST', OFKIT_URL + '/api/links/', body)).json()).id;
};
`;

/** Registers a recurrent link, reads its accounts and ends once no delivery came for half a second. */
const IMPATIENT_WORKER = `${WORKER_HEAD}
onEvent.push((event) => call('GET', OFKIT_URL + '/api/accounts/?link=' + event.link_id));
const link = await register();
await call('GET', OFKIT_URL + '/api/accounts/?link=' + link);
while (Date.now() - lastDelivery < 500) await sleep(100);
server.closeAllConnections();
server.close();
console.log('no delivery for half a second: all of them, it thinks');
`;

/** Lives until golive's end file, and retrieves a link each time it hears the link broke, twice. */
const MENDLESS_WORKER = `${WORKER_HEAD}
onEvent.push(async (event) => {
  if (event.webhook_type !== 'LINK' || event.webhook_code === 'link_deleted') return;
  for (let time = 0; time < 2; time += 1) await call('POST', OFKIT_URL + '/api/accounts/', { link: event.link_id });
});
await register();
while (!existsSync(OFKIT_LIFE_ENDED_FILE)) await sleep(100);
server.closeAllConnections();
server.close();
`;

let folder: GoliveShell;
beforeAll(() => {
  folder = goliveShell();
  writeFileSync(join(folder.dir, 'impatient.mjs'), IMPATIENT_WORKER);
  writeFileSync(join(folder.dir, 'mendless.mjs'), MENDLESS_WORKER);
});
afterAll(() => folder.remove());

describe('WEBHOOKS: deliveries that come late and out of order', () => {
  it('is Not ready for a worker that ends half a second after the last delivery, before the held ones', {
    timeout: 120_000,
  }, () => {
    const run = folder.run(
      'ofkit golive --situations webhooks-delayed-interleaved --out late -- node impatient.mjs',
    );
    expect(run.code).toBe(1);
    const bundle = folder.bundle('late');
    expect(bundle.situations[0]?.conditions).toEqual([
      { condition: 'the client judge exercised CLIENT-WEBHOOK-ACK', holds: false },
      { condition: 'the client judge exercised CLIENT-WEBHOOK-FOLLOW-UP', holds: false },
      { condition: 'every delivery held back delivered before the client ended', holds: false },
    ]);
    expect(itemOf(bundle, 'WEBHOOKS')).toMatchObject({ verdict: 'not_ready' });
    expect(itemOf(bundle, 'WEBHOOKS')?.findings[0]).toMatchObject({
      kind: 'not_met',
      situation: 'webhooks-delayed-interleaved',
    });
  });
});

describe("BROKEN-LINKS: a recurrent link's weeks", () => {
  it('is Not ready for a worker that lives to the end but retrieves its link again each time it breaks', {
    timeout: 120_000,
  }, () => {
    const run = folder.run('ofkit golive --situations recurrent-life --out mendless -- node mendless.mjs');
    expect(run.code).toBe(1);
    const bundle = folder.bundle('mendless');
    const life = bundle.situations[0]!;
    expect(life.exitCode).toBe(0);
    expect(life.conditions).toContainEqual({
      condition: "the recurrent link's life played to its end while the client ran",
      holds: true,
    });
    const broken = itemOf(bundle, 'BROKEN-LINKS');
    expect(broken?.verdict).toBe('not_ready');
    expect(broken?.findings).toContainEqual(
      expect.objectContaining({ kind: 'violated', rule: 'CLIENT-UPDATE-MODE', situation: 'recurrent-life' }),
    );
  });
});

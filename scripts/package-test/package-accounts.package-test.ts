// Runs in the packaged test's temporary project: the simulator in process from `ofkit/simulator`,
// a link registered and its accounts retrieved through `ofkit/client`.
import { createOfkitClient } from 'ofkit/client';
import { type StartedSimulator, startSimulator } from 'ofkit/simulator';
import { afterAll, beforeAll, expect, it } from 'vitest';

let simulator: StartedSimulator;
beforeAll(async () => {
  simulator = await startSimulator();
});
afterAll(() => simulator.close());

it('registers a link and retrieves its accounts', async () => {
  const [key] = simulator.keys;
  const client = createOfkitClient({ baseUrl: simulator.url, ...key! });
  const link = await client.POST('/api/links/', {
    body: { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' },
  });
  expect(link.status).toBe(201);
  const accounts = await client.POST('/api/accounts/', { body: { link: link.data!.id } });
  expect(accounts.status).toBe(201);
  expect(accounts.data!.length).toBeGreaterThan(0);
  await simulator.control.reset();
});

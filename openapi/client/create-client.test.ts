import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOfkitClient } from './create-client.js';

interface Seen {
  method: string | undefined;
  url: string | undefined;
  authorization: string | undefined;
  body: string;
}

type Answer = { status: number; body: unknown };

/** A loopback server that answers from a script and records what it was sent. */
async function scriptedServer(answers: Answer[]): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    seen.push({
      method: request.method,
      url: request.url,
      authorization: request.headers.authorization,
      body,
    });
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    response
      .writeHead(answer.status, { 'content-type': 'application/json' })
      .end(JSON.stringify(answer.body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const error = (code: string) => [{ request_id: 'r1', message: code, code }];
const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function clientFor(answers: Answer[]) {
  const target = await scriptedServer(answers);
  servers.push(target.server);
  const waits: number[] = [];
  const retries: string[] = [];
  const client = createOfkitClient({
    baseUrl: `${target.url}/`,
    secretId: 'client-id',
    secretPassword: 'client-secret-value',
    sleep: async (ms) => {
      waits.push(ms);
    },
    onRetry: (event) => retries.push(JSON.stringify(event)),
  });
  return { client, seen: target.seen, waits, retries };
}

describe('CLIENT-RETRY-5XX', () => {
  it('retries a 50x five times with waits of 3, 6, 12, 24 and 48 s, then gives the last answer', async () => {
    const { client, seen, waits } = await clientFor([{ status: 500, body: error('internal_server_error') }]);
    const { response, error: body } = await client.GET('/api/links/');
    expect(response.status).toBe(500);
    expect(body).toEqual(error('internal_server_error'));
    expect(seen).toHaveLength(6);
    expect(waits).toEqual([3000, 6000, 12000, 24000, 48000]);
  });

  it('stops retrying at the first success and re-sends the same body each time', async () => {
    const link = { institution: 'ofbank_br_retail', username: 'u', password: 'p' };
    const { client, seen, waits } = await clientFor([
      { status: 503, body: error('unavailable') },
      { status: 502, body: error('bad_gateway') },
      { status: 201, body: { id: 'x' } },
    ]);
    const { response } = await client.POST('/api/links/', { body: link });
    expect(response.status).toBe(201);
    expect(seen.map((s) => JSON.parse(s.body))).toEqual([link, link, link]);
    expect(waits).toEqual([3000, 6000]);
  });
});

describe('CLIENT-NO-RETRY-4XX', () => {
  it.each([400, 401, 404, 405, 409, 428, 429])('does not retry a %i', async (status) => {
    const { client, seen, waits } = await clientFor([{ status, body: error('client_error') }]);
    const { response } = await client.GET('/api/links/');
    expect(response.status).toBe(status);
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('CLIENT-TOO-MANY-SESSIONS', () => {
  it('retries the Too Many Sessions error like a 50x', async () => {
    const { client, seen, waits } = await clientFor([
      { status: 400, body: error('too_many_sessions') },
      { status: 200, body: { count: 0, next: null, previous: null, results: [] } },
    ]);
    const { response } = await client.GET('/api/links/');
    expect(response.status).toBe(200);
    expect(seen).toHaveLength(2);
    expect(waits).toEqual([3000]);
  });
});

describe('CLIENT-NO-SECRETS', () => {
  it('sends the keys only as Basic credentials and never reports them', async () => {
    const { client, seen, retries } = await clientFor([
      { status: 500, body: error('internal_server_error') },
      { status: 200, body: {} },
    ]);
    await client.GET('/api/');
    expect(seen[0]?.authorization).toBe(
      `Basic ${Buffer.from('client-id:client-secret-value').toString('base64')}`,
    );
    expect(retries).toHaveLength(1);
    expect(retries.join('\n')).not.toContain('client-secret-value');
    expect(retries.join('\n')).not.toContain(Buffer.from('client-id:client-secret-value').toString('base64'));
  });
});

const pause = {
  request_id: 'r1',
  message: 'A MFA token is required by the institution to login.',
  code: 'token_required',
  session: '2675b703b9d4451f8d4861a3eee54449',
  expiry: 600,
  link: '30cb4806-6e00-48a4-91c9-ca55968576c8',
  token_generation_data: {
    instructions: 'Use the code.',
    type: 'numeric',
    value: '',
    expects_user_input: true,
  },
};

describe('LINK-MFA-428', () => {
  it('tells answers apart by status: a 428 carries the session, resumeMfa PATCHes the same collection', async () => {
    const { client, seen } = await clientFor([
      { status: 428, body: [pause] },
      { status: 201, body: [{ id: 'acc-1' }] },
    ]);
    const paused = await client.POST('/api/accounts/', { body: { link: pause.link, save_data: false } });
    expect(paused.status).toBe(428);
    if (paused.status !== 428) return;
    expect(paused.error[0]?.session).toBe(pause.session);
    const resumed = await client.resumeMfa(paused, '123456');
    expect(resumed.status).toBe(201);
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'POST /api/accounts/',
      'PATCH /api/accounts/',
    ]);
    expect(JSON.parse(seen[1]!.body)).toEqual({
      session: pause.session,
      token: '123456',
      link: pause.link,
      save_data: false,
    });
  });

  it('resumes a registration with session, token and link alone', async () => {
    const { client, seen } = await clientFor([
      { status: 428, body: [pause] },
      { status: 200, body: { id: pause.link, status: 'valid' } },
    ]);
    const paused = await client.POST('/api/links/', {
      body: { institution: 'tokenbank_br_business', username: 'u', password: 'p' },
    });
    if (paused.status !== 428) throw new Error(`expected 428, got ${paused.status}`);
    const resumed = await client.resumeMfa(paused, '654321');
    expect(resumed).toMatchObject({ status: 200, data: { id: pause.link, status: 'valid' } });
    expect(`${seen[1]?.method} ${seen[1]?.url}`).toBe('PATCH /api/links/');
    expect(JSON.parse(seen[1]!.body)).toEqual({ session: pause.session, token: '654321', link: pause.link });
  });

  it('refuses a pause it did not answer (a programmer mistake)', async () => {
    const { client } = await clientFor([{ status: 200, body: {} }]);
    const forged = { status: 428 as const, error: [pause], response: new Response() } as never;
    expect(() => client.resumeMfa(forged, '123456')).toThrow(TypeError);
  });
});

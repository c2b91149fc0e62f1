/**
 * What the redactor takes out of an exchange: the Basic key id and secret (the header rewritten with
 * their pseudonyms, wherever else they show), credentials in bodies and queries, cookies, and personal
 * members (`x-personal`) and the query filters on them, each replaced by the same pseudonym every time
 * and valid against its schema; with personal data kept, only the credentials.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadBridgeDocument } from '../document/bridge-document.js';
import type { Exchange } from '../exchange/exchange.js';
import { createRedactor } from './redact-exchange.js';

const document = loadBridgeDocument();
const BASE = 'http://api.test';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const OWNER = {
  id: '3f2a9c1e-1111-4111-8111-111111111111',
  link: '3f2a9c1e-2222-4222-8222-222222222222',
  internal_identification: null,
  collected_at: null,
  display_name: 'Maria Fernanda Souza',
  email: 'maria.souza@example.com',
  phone_number: '+55 11 98765-4321',
  address: null,
  document_id: { document_type: 'CPF', document_number: '123.456.789-09' },
};

function exchange(
  method: string,
  path: string,
  status: number,
  request?: unknown,
  response?: unknown,
  headers: [string, string][] = [],
): Exchange {
  return {
    startedAt: '2026-11-02T12:00:00.000Z',
    durationMs: 3,
    request: {
      method,
      url: `${BASE}${path}`,
      headers: [
        ['authorization', basic('key-id-1', 'very-secret-1')],
        ['content-type', 'application/json'],
        ...headers,
      ],
      ...(request !== undefined && { body: JSON.stringify(request) }),
    },
    response: {
      status,
      statusText: '',
      headers: [['content-type', 'application/json']],
      ...(response !== undefined && { body: JSON.stringify(response) }),
    },
  };
}

const redactor = (keepPersonal = false) =>
  createRedactor({ document, key: Buffer.alloc(32, 7), keepPersonal, basePath: '' });

describe('createRedactor', () => {
  it('replaces the Basic key id and secret, in the header and wherever they show again', () => {
    const redact = redactor();
    const first = redact.redact(
      exchange('GET', '/api/links/?key=key-id-1', 200, undefined, {
        count: 0,
        next: null,
        previous: null,
        results: [],
      }),
    );
    const header = first.request.headers.find(([name]) => name === 'authorization')![1];
    const [id, secret] = Buffer.from(header.slice(6), 'base64').toString().split(':');
    expect(id).not.toBe('key-id-1');
    expect(secret).not.toBe('very-secret-1');
    expect(first.request.url).toBe(`${BASE}/api/links/?key=${id}`);
    const again = redact.redact(exchange('GET', '/api/', 200));
    expect(again.request.headers[0]).toEqual(['authorization', header]);
  });

  it('replaces credentials of a body and the personal members, the same value the same way, valid', () => {
    const redact = redactor();
    const registration = redact.redact(
      exchange('POST', '/api/links/', 201, {
        institution: 'ofbank_br_retail',
        username: '76109277673',
        password: 'p4ssw0rd!',
      }),
    );
    const sent = JSON.parse(registration.request.body!);
    expect(sent.institution).toBe('ofbank_br_retail');
    expect(sent.username).toMatch(/^\d{11}$/);
    expect(sent.username).not.toBe('76109277673');
    expect(sent.password).not.toBe('p4ssw0rd!');
    const page = { count: 1, next: null, previous: null, results: [OWNER] };
    const owners = JSON.parse(
      redact.redact(exchange('GET', `/api/owners/?link=${OWNER.link}`, 200, undefined, page)).response.body!,
    );
    const owner = owners.results[0];
    expect(owner.id).toBe(OWNER.id);
    expect(owner.document_id.document_type).toBe('CPF');
    for (const member of ['display_name', 'email', 'phone_number'] as const)
      expect(owner[member]).not.toBe(OWNER[member]);
    expect(owner.email).toMatch(/^[a-z]+\.[a-z]+@[a-z]+\.[a-z]+$/);
    expect(owner.document_id.document_number).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
    const detail = JSON.parse(
      redact.redact(exchange('GET', `/api/owners/${OWNER.id}/`, 200, undefined, OWNER)).response.body!,
    );
    expect(detail.display_name).toBe(owner.display_name);
  });

  it('replaces a query filter on a personal member with the pseudonym the member got', () => {
    const redact = redactor();
    const customer = {
      id: '3f2a9c1e-3333-4333-8333-333333333333',
      created_at: '2026-11-02T12:00:00Z',
      identifier: '52601815906',
      name: 'Ana Lima',
      email: null,
      phone: null,
      customer_type: 'INDIVIDUAL',
    };
    const created = JSON.parse(
      redact.redact(exchange('POST', '/payments/br/customers/', 201, {}, customer)).response.body!,
    );
    const listed = redact.redact(exchange('GET', '/payments/br/customers/?identifier=52601815906', 200));
    expect(new URL(listed.request.url).searchParams.get('identifier')).toBe(created.identifier);
    expect(created.identifier).toMatch(/^\d{11}$/);
  });

  it('with personal data kept, keeps it and still redacts the credentials and cookies', () => {
    const redact = redactor(true);
    const page = { count: 1, next: null, previous: null, results: [OWNER] };
    const kept = redact.redact(
      exchange('GET', `/api/owners/?link=${OWNER.link}`, 200, undefined, page, [
        ['cookie', 'sid=abc123; theme=dark'],
      ]),
    );
    expect(JSON.parse(kept.response.body!).results[0]).toEqual(OWNER);
    expect(kept.request.headers.find(([name]) => name === 'cookie')?.[1]).toMatch(/^sid=\w+; theme=\w+$/);
    expect(kept.request.headers.find(([name]) => name === 'cookie')?.[1]).not.toContain('abc123');
    const session = redact.redact(
      exchange('PATCH', '/api/links/', 200, { session: 'f'.repeat(32), token: '123456', link: OWNER.link }),
    );
    const body = JSON.parse(session.request.body!);
    // The MFA session and the link stay readable (the judge follows a resume by them); the token goes.
    expect(body.session).toBe('f'.repeat(32));
    expect(body.token).not.toBe('123456');
    expect(body.link).toBe(OWNER.link);
  });

  it('redacts every record of a long page alike, also after a record with 1,100 members the document does not name', () => {
    const redact = redactor();
    const crowded = {
      ...OWNER,
      ...Object.fromEntries(
        Array.from({ length: 1_100 }, (_, index) => [`extra_${index}`, `value ${index}`]),
      ),
      display_name: 'Joana Prado Lima',
      notes: { password: 'hunter2-secret', kept: 'plain words' },
    };
    const names = ['Bruno Alves Teixeira', 'Carla Dias Moreira', 'Davi Rocha Nunes'];
    const others = names.map((display_name, index) => ({
      ...OWNER,
      id: `3f2a9c1e-444${index}-4444-8444-444444444444`,
      display_name,
    }));
    const page = { count: 4, next: null, previous: null, results: [crowded, ...others] };
    const text = redact.redact(exchange('GET', `/api/owners/?link=${OWNER.link}`, 200, undefined, page))
      .response.body!;
    for (const secret of ['Joana Prado Lima', ...names, 'hunter2-secret', OWNER.email, OWNER.display_name])
      expect(text).not.toContain(secret);
    const results = JSON.parse(text).results;
    expect(results[0].extra_1099).toBe('value 1099');
    expect(results[0].notes.kept).toBe('plain words');
    for (const record of results) expect(record.document_id.document_type).toBe('CPF');
  });

  it('keeps a query whose percent-encoding is malformed, still redacting a credential under it by name', () => {
    const redacted = redactor().redact(
      exchange('GET', '/api/links/?link=%zz&password=open%zz-sesame&page=%', 400, undefined, []),
    );
    const query = new URL(redacted.request.url).search;
    expect(query).toContain('link=%zz');
    expect(query).toContain('page=%');
    expect(query).not.toContain('sesame');
    expect(query).toMatch(/password=[^&]+/);
  });

  it('leaves out a JSON body nested too deep to walk, never keeping it unredacted', () => {
    const deep = `${'{"password":"hunter2","next":'.repeat(300)}null${'}'.repeat(300)}`;
    const sent = exchange('POST', '/api/links/', 400, undefined, []);
    const redacted = redactor().redact({ ...sent, request: { ...sent.request, body: deep } });
    expect(redacted.request.body).toBeUndefined();
    expect(redacted.request.bodyOmitted).toBe(true);
    const shallow = `${'{"password":"hunter2","next":'.repeat(20)}null${'}'.repeat(20)}`;
    const kept = redactor().redact({ ...sent, request: { ...sent.request, body: shallow } });
    expect(kept.request.body).not.toContain('hunter2');
    expect(kept.request.bodyOmitted).toBeUndefined();
  });

  it('redacts passwd, pin and otp members (a PIN sent as a number too) by the one list of credential names', () => {
    const sent = {
      institution: 'ofbank_br_retail',
      username: '76109277673',
      passwd: 'hunter22',
      pin: 482913,
      otp: '907531',
    };
    const text = redactor().redact(exchange('POST', '/api/links/', 201, sent)).request.body!;
    for (const secret of ['hunter22', '482913', '907531']) expect(text).not.toContain(secret);
    expect(JSON.parse(text).institution).toBe('ofbank_br_retail');
  });

  it('redacts a form body by name and keeps of a body it cannot read its length and sha256 only', () => {
    const form = exchange('POST', '/api/links/', 400, undefined, [], []);
    const withForm = {
      ...form,
      request: {
        ...form.request,
        headers: [['content-type', 'application/x-www-form-urlencoded']] as [string, string][],
        body: 'institution=ofbank_br_retail&password=hunter22&pin=4829',
      },
    };
    const redactedForm = redactor().redact(withForm).request.body!;
    expect(redactedForm).toContain('institution=ofbank_br_retail');
    expect(redactedForm).not.toContain('hunter22');
    expect(redactedForm).not.toContain('4829');
    const broken = '{"password":"hunter22",';
    const unreadable = redactor().redact({ ...form, request: { ...form.request, body: broken } });
    expect(unreadable.request.body).toBeUndefined();
    expect(unreadable.request.bodyDigest).toEqual({
      length: Buffer.byteLength(broken),
      sha256: createHash('sha256').update(broken).digest('hex'),
    });
  });

  it('learns without writing the copy what redacting teaches: the same pseudonyms, in the same texts', () => {
    const form = exchange('POST', '/api/links/', 400);
    const exchanges: Exchange[] = [
      exchange(
        'POST',
        '/api/links/',
        201,
        { username: '76109277673', password: 'hunter22' },
        { id: OWNER.link },
      ),
      exchange('GET', `/api/owners/?link=${OWNER.link}`, 200, undefined, {
        count: 1,
        next: null,
        previous: null,
        results: [OWNER],
      }),
      exchange('GET', '/payments/br/customers/?identifier=52601815906', 200, undefined, undefined, [
        ['cookie', 'session=cookie-value-9'],
      ]),
      {
        ...form,
        request: {
          ...form.request,
          headers: [['content-type', 'application/x-www-form-urlencoded']],
          body: 'institution=ofbank_br_retail&pin=4829',
        },
      },
    ];
    const redacting = redactor();
    const learning = redactor();
    for (const each of exchanges) {
      redacting.redact(each);
      learning.learn(each);
    }
    const said = [
      'key-id-1 very-secret-1 76109277673 hunter22 cookie-value-9 4829 52601815906',
      `${OWNER.display_name} ${OWNER.email} ${OWNER.document_id.document_number}`,
    ].join('\n');
    expect(learning.text(said)).toBe(redacting.text(said));
    for (const value of said.split(/\s+/))
      expect(learning.text(said)).not.toMatch(new RegExp(`\\b${value}\\b`));
  });
});

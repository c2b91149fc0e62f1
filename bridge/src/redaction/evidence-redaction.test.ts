/**
 * The go-live bundle's redaction: what a run's exchanges carried (the end-user's password and username,
 * an owner's name and document) and the API key in every form it travels never reach a line of the
 * client's output or a webhook's payload as they were; the key becomes the judge's placeholders.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../exchange/exchange.js';
import { createEvidenceRedaction } from './evidence-redaction.js';

const KEY = { id: 'ofkit-key-a', secret: 's3cr3t/with+signs' };
const BASIC = Buffer.from(`${KEY.id}:${KEY.secret}`).toString('base64');
const LINK = '3f2a9c1e-2222-4222-8222-222222222222';
const OWNER = {
  id: '3f2a9c1e-1111-4111-8111-111111111111',
  link: LINK,
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
  request: unknown,
  response: unknown,
): Exchange {
  const json: [string, string] = ['content-type', 'application/json'];
  return {
    startedAt: '2026-11-02T12:00:00.000Z',
    durationMs: 3,
    request: {
      method,
      url: `http://127.0.0.1:4010${path}`,
      headers: [['authorization', `Basic ${BASIC}`], json],
      ...(request !== undefined && { body: JSON.stringify(request) }),
    },
    response: { status, statusText: '', headers: [json], body: JSON.stringify(response) },
  };
}

function learnt() {
  const redaction = createEvidenceRedaction(KEY);
  const credentials = { institution: 'ofbank_br_retail', username: '76109277673', password: 'hunter2-pass' };
  redaction.see(exchange('POST', '/api/links/', 201, credentials, { id: LINK }));
  redaction.see(
    exchange('GET', `/api/owners/?link=${LINK}`, 200, undefined, {
      count: 1,
      next: null,
      previous: null,
      results: [OWNER],
    }),
  );
  return redaction;
}

describe('the evidence redaction', () => {
  it('masks the key in each form it travels with the judge placeholders', () => {
    const redaction = learnt();
    const line = `auth Basic ${BASIC} id=${KEY.id} secret=${KEY.secret} url=${encodeURIComponent(KEY.secret)}`;
    expect(redaction.text(line)).toBe(
      'auth Basic $OFKIT_KEY:$OFKIT_SECRET id=$OFKIT_KEY secret=$OFKIT_SECRET url=$OFKIT_SECRET',
    );
  });

  it("replaces what the exchanges carried in the client's output", () => {
    const line = learnt().text(
      'login 76109277673 / hunter2-pass failed for Maria Fernanda Souza (123.456.789-09, maria.souza@example.com)',
    );
    for (const value of [
      '76109277673',
      'hunter2-pass',
      'Maria Fernanda Souza',
      '123.456.789-09',
      'maria.souza@example.com',
    ])
      expect(line).not.toContain(value);
    expect(line).toMatch(/^login \S+ \/ \S+ failed for /);
  });

  it("replaces them in a webhook's payload, and credentials there by name", () => {
    const payload = learnt().json({
      link_id: LINK,
      data: { display_name: 'Maria Fernanda Souza', note: `for 76109277673`, password: 'never-seen-before' },
    });
    const text = JSON.stringify(payload);
    for (const value of ['Maria Fernanda Souza', '76109277673', 'never-seen-before'])
      expect(text).not.toContain(value);
    expect(payload).toMatchObject({ link_id: LINK });
  });

  it('learns per run: a second redaction pseudonymises with its own key', () => {
    const one = learnt().text('Maria Fernanda Souza');
    const two = learnt().text('Maria Fernanda Souza');
    expect(one).not.toBe('Maria Fernanda Souza');
    expect(two).not.toBe(one);
  });
});

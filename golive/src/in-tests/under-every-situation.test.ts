/**
 * `underEverySituation`: one test per situation, named after it, each body run against a fresh
 * simulator in process set up as the situation says; a situation's test fails when the body throws, when
 * the client broke a client rule, or when it did not meet the situation, saying what to do to meet it.
 */
import { describe, expect, it } from 'vitest';
import { underEverySituation } from './under-every-situation.js';

/** The tests `underEverySituation` declares, collected rather than run. */
function declared(
  ...args: Parameters<typeof underEverySituation> extends [unknown, ...infer Rest] ? Rest : never
) {
  const tests: { name: string; body: () => Promise<void>; timeout?: number }[] = [];
  underEverySituation((name, body, timeout) => tests.push({ name, body, timeout }), ...args);
  return tests;
}

const LINK = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };

describe('underEverySituation', () => {
  it('declares one test per situation asked for, named after it, every situation by default', () => {
    const all = declared('my flow', async () => {});
    expect(all.length).toBeGreaterThanOrEqual(12);
    expect(all[0]).toMatchObject({ name: 'my flow [baseline]', timeout: 120_000 });
    const two = declared('my flow', async () => {}, { situations: ['sandbox', 'baseline'] });
    expect(two.map((t) => t.name)).toEqual(['my flow [baseline]', 'my flow [sandbox]']);
    expect(() => declared('x', async () => {}, { situations: ['nowhere'] })).toThrow(/no situation nowhere/);
  });

  it('runs the body against the situation: the sandbox key in the sandbox, and passes when met', async () => {
    const seen: string[] = [];
    const [test] = declared(
      'registers',
      async ({ url, keys, env, environment }) => {
        seen.push(environment, env.OFKIT_SITUATION ?? '', keys[0]?.secretId ?? '');
        const key = keys[0]!;
        const answer = await fetch(`${url}/api/links/`, {
          method: 'POST',
          headers: {
            authorization: `Basic ${btoa(`${key.secretId}:${key.secretPassword}`)}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(LINK),
        });
        expect(answer.status).toBe(201);
      },
      { situations: ['sandbox'] },
    );
    await test!.body();
    expect(seen).toEqual(['sandbox', 'sandbox', 'ofkit-sandbox-key']);
  });

  it('fails a situation the body never met, saying what to do, and one where it threw', async () => {
    const [quiet] = declared('does nothing', async () => {}, { situations: ['many-pages'] });
    await expect(quiet!.body()).rejects.toThrow(
      /ofkit golive, situation many-pages:\n- situation not met \(not seen: the client judge exercised CLIENT-PAGINATION-NEXT; a list read through next to the page whose next is null\): Register a recurrent link/,
    );
    const [throwing] = declared(
      'throws',
      async () => {
        throw new Error('my client broke');
      },
      { situations: ['baseline'] },
    );
    await expect(throwing!.body()).rejects.toThrow(/- the test body threw: my client broke/);
  });
});

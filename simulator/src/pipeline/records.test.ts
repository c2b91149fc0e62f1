import { describe, expect, it } from 'vitest';
import { recordAnswer } from './records.js';

describe("a record's answer", () => {
  it('is its public view, with no serializer of its own (a body rewritten later is what is written)', () => {
    const record = { id: 'r1', status: 'valid', link: null, _password: 'never-shown' };
    const answer = recordAnswer(201, record);
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: 'r1', status: 'valid', link: null });
    expect(answer.serialize).toBeUndefined();
  });
});

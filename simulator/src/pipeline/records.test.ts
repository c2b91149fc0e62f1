import { describe, expect, it } from 'vitest';
import { recordAnswer } from './records.js';

describe("a record's answer", () => {
  it('is its public view, and its bytes are that view as JSON, made once per record', () => {
    const record = { id: 'r1', status: 'valid', link: null, _password: 'never-shown' };
    const answer = recordAnswer(201, record);
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: 'r1', status: 'valid', link: null });
    expect(answer.serialize?.().toString('utf8')).toBe(JSON.stringify(answer.body));
    expect(recordAnswer(200, record).serialize?.()).toBe(answer.serialize?.());
  });
});

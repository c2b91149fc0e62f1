import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { contentCodingsOf, decodeBody } from './content-coding.js';

const TEXT = JSON.stringify({ username: 'ana', password: 'secret-9', note: 'ção' });
const bytes = Buffer.from(TEXT);
const coded = (coding: string) => [['content-encoding', coding]] as const;
/** Chunks as a socket delivers them: the coded bytes split anywhere. */
const split = (buffer: Buffer) => [buffer.subarray(0, 7), buffer.subarray(7)];

describe('content codings (RFC 9110 8.4)', () => {
  it('reads a body without a coding, or under identity, as UTF-8', () => {
    expect(decodeBody(split(bytes), [])).toEqual({ text: TEXT });
    expect(decodeBody([bytes], coded('identity'))).toEqual({ text: TEXT });
  });

  it.each([
    ['gzip', gzipSync(bytes)],
    ['x-gzip', gzipSync(bytes)],
    ['GZIP', gzipSync(bytes)],
    ['deflate', deflateSync(bytes)],
    ['br', brotliCompressSync(bytes)],
  ])('undoes %s', (coding, body) => {
    expect(decodeBody(split(body), coded(coding))).toEqual({ text: TEXT });
  });

  it('undoes deflate sent in the raw format, as some servers do', () => {
    expect(decodeBody([deflateRawSync(bytes)], coded('deflate'))).toEqual({ text: TEXT });
  });

  it('undoes several codings, the last listed first', () => {
    const twice = brotliCompressSync(gzipSync(bytes));
    expect(contentCodingsOf([['Content-Encoding', 'gzip, br']])).toEqual(['gzip', 'br']);
    expect(decodeBody([twice], coded('gzip, br'))).toEqual({ text: TEXT });
    expect(
      decodeBody(
        [twice],
        [
          ['content-encoding', 'gzip'],
          ['content-encoding', 'br'],
        ],
      ),
    ).toEqual({
      text: TEXT,
    });
  });

  it('leaves out a body it cannot read: an unknown coding, corrupt data, a coding that inflates past the cap', () => {
    expect(decodeBody([bytes], coded('zstd'))).toEqual({
      omitted: 'content coding zstd is not one ofkit reads',
    });
    expect(decodeBody([bytes], coded('gzip'))).toMatchObject({
      omitted: expect.stringMatching(/gzip content is corrupt/),
    });
    const bomb = gzipSync(Buffer.alloc(1_000_000, 'a'));
    expect(decodeBody([bomb], coded('gzip'), 10_000)).toEqual({
      omitted: 'its gzip content inflates past 10000 bytes',
    });
  });

  it('reads an empty body as empty, whatever the coding', () => {
    expect(decodeBody([], coded('gzip'))).toEqual({ text: '' });
  });
});

/**
 * HAR files: the writer's file is a whole HAR after every append (a recording stopped at any moment
 * opens), entries in call order; an exchange survives the trip to an entry and back; the reader takes
 * a browser's base64 bodies and leaves out unanswered requests; anything else is one clear error.
 */

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutWebAssembly } from '../../test-support/without-webassembly.js';
import type { Exchange } from '../exchange/exchange.js';
import { fromHarEntry, toHarEntry } from './har-entry.js';
import { HarFileError, readRecording } from './har-reader.js';
import type { Har } from './har-types.js';
import { openHarWriter } from './har-writer.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ofkit-har-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

const EXCHANGE: Exchange = {
  startedAt: '2026-11-02T12:00:00.000Z',
  durationMs: 12,
  request: {
    method: 'POST',
    url: 'http://api.test/api/links/?x=1',
    headers: [
      ['content-type', 'application/json'],
      ['cookie', 'a=1; b=2'],
    ],
    body: '{"institution":"ofbank_br_retail"}',
  },
  response: {
    status: 201,
    statusText: 'Created',
    headers: [
      ['content-type', 'application/json'],
      ['set-cookie', 's=9; Path=/'],
    ],
    body: '{"id":"x"}',
  },
};

describe('HAR entries', () => {
  it('hold an exchange that comes back the same', () => {
    const entry = toHarEntry(EXCHANGE);
    expect(entry.request.queryString).toEqual([{ name: 'x', value: '1' }]);
    expect(entry.request.cookies).toEqual([
      { name: 'a', value: '1' },
      { name: 'b', value: '2' },
    ]);
    expect(entry.response.cookies).toEqual([{ name: 's', value: '9' }]);
    expect(entry.request.postData).toEqual({ mimeType: 'application/json', text: EXCHANGE.request.body });
    expect(entry.response.content).toEqual({ size: 10, mimeType: 'application/json', text: '{"id":"x"}' });
    expect(fromHarEntry(entry)).toEqual(EXCHANGE);
  });

  it("keep the proxy's own failure and a body left out", () => {
    const failed: Exchange = {
      ...EXCHANGE,
      upstreamFailure: { code: 'proxy_upstream_tls', message: 'no' },
      response: { ...EXCHANGE.response, body: undefined, bodyOmitted: true },
    };
    const back = fromHarEntry(JSON.parse(JSON.stringify(toHarEntry(failed))));
    expect(back.upstreamFailure).toEqual({ code: 'proxy_upstream_tls', message: 'no' });
    expect(back.response.bodyOmitted).toBe(true);
  });

  it('read a base64 body a tool kept in its content coding as the text it holds, and a decoded one as it is', () => {
    const text = '{"id":"x"}';
    const entry = (bytes: Buffer) => {
      const har = toHarEntry({
        ...EXCHANGE,
        response: { ...EXCHANGE.response, headers: [['content-encoding', 'gzip']], body: undefined },
      });
      har.response.content = {
        size: text.length,
        mimeType: 'application/json',
        text: bytes.toString('base64'),
        encoding: 'base64',
      };
      return har;
    };
    expect(fromHarEntry(entry(gzipSync(text))).response.body).toBe(text);
    expect(fromHarEntry(entry(Buffer.from(text))).response.body).toBe(text);
  });
});

describe('openHarWriter', () => {
  it('leaves a whole HAR after every append, entries in call order', async () => {
    const path = join(folder, 'w.har');
    const writer = await openHarWriter(path, { version: '1.2', creator: { name: 'ofkit', version: 't' } });
    expect((JSON.parse(await readFile(path, 'utf8')) as Har).log.entries).toEqual([]);
    // Read only between writes: a reader racing a write in flight may see it half done.
    await writer.append(toHarEntry({ ...EXCHANGE, durationMs: 0 }));
    expect((JSON.parse(await readFile(path, 'utf8')) as Har).log.entries.length).toBe(1);
    await Promise.all([1, 2].map((n) => writer.append(toHarEntry({ ...EXCHANGE, durationMs: n }))));
    await writer.close();
    const har = JSON.parse(await readFile(path, 'utf8')) as Har;
    expect(har.log.entries.map((e) => e.time)).toEqual([0, 1, 2]);
    expect(writer.count()).toBe(3);
  });

  it.each([
    ['by the WebAssembly escaper', true, ''],
    ['by JSON.stringify, a lone surrogate in each slice', true, '\ud800'],
    ['by JSON.stringify, without WebAssembly (node --jitless)', false, ''],
  ])(
    'writes long bodies byte for byte as JSON.stringify would, %s: quotes, escapes, pairs across slices',
    async (_name, webAssembly, lone) => {
      // Every 16,384 units a slice ends: put surrogate pairs, quotes and escapes around those places.
      const tricky = `"\\\u0000\n\u2028é😀${lone}<x>`;
      const body = Array.from({ length: 9_000 }, (_, index) => `${index}${tricky}`).join(',');
      const request = `${'😀'.repeat(8_191)}a😀${'"'.repeat(20_000)}`;
      const exchange: Exchange = {
        ...EXCHANGE,
        request: { ...EXCHANGE.request, method: 'POST', body: request },
        response: { ...EXCHANGE.response, body },
      };
      const path = join(folder, 'long.har');
      const head = { version: '1.2', creator: { name: 'ofkit', version: 't' } };
      const open = () => openHarWriter(path, head);
      const writer = await (webAssembly ? open() : withoutWebAssembly(open));
      await writer.append(toHarEntry(exchange));
      await writer.append(toHarEntry(EXCHANGE));
      await writer.close();
      const expected = `${JSON.stringify({ log: { ...head, entries: [] } }).slice(0, -3)}\n${JSON.stringify(toHarEntry(exchange))},\n${JSON.stringify(toHarEntry(EXCHANGE))}\n]}}\n`;
      expect(await readFile(path, 'utf8')).toBe(expected);
      const back = fromHarEntry((JSON.parse(expected) as Har).log.entries[0]!);
      expect(back.response.body).toBe(body);
      expect(back.request.body).toBe(request);
    },
  );
});

describe('readRecording', () => {
  it("reads a browser's HAR: base64 bodies decoded, unanswered requests counted apart", async () => {
    const path = join(folder, 'browser.har');
    const entry = toHarEntry(EXCHANGE);
    entry.response.content = {
      size: 10,
      mimeType: 'application/json',
      text: Buffer.from('{"id":"x"}').toString('base64'),
      encoding: 'base64',
    };
    const blocked = { ...toHarEntry(EXCHANGE), response: { ...entry.response, status: 0 } };
    await writeFile(
      path,
      JSON.stringify({
        log: { version: '1.2', creator: { name: 'WebInspector', version: '537' }, entries: [entry, blocked] },
      }),
    );
    const recording = await readRecording(path);
    expect(recording.creator).toBe('WebInspector 537');
    expect(recording.unanswered).toBe(1);
    expect(recording.exchanges[0]?.response.body).toBe('{"id":"x"}');
  });

  it('names the file and the reason when it is no HAR', async () => {
    const path = join(folder, 'broken.har');
    await writeFile(path, JSON.stringify({ log: { entries: [{ request: { method: 'GET' } }] } }));
    await expect(readRecording(path)).rejects.toThrow(HarFileError);
    await expect(readRecording(path)).rejects.toThrow(/broken\.har: entry 0 has no request method and URL/);
  });

  it.each([
    [
      'a header without a name',
      { request: { headers: [{ value: 'x' }] } },
      /entry 0: its request header 0 has no name and value/,
    ],
    [
      'headers that are no list',
      { response: { headers: 'x' } },
      /entry 0: its response headers are not a list/,
    ],
    [
      'content text that is no string',
      { response: { content: { text: 5 } } },
      /entry 0: its response content text is not a string/,
    ],
    [
      'post data text that is no string',
      { request: { postData: { text: {} } } },
      /entry 0: its request body text is not a string/,
    ],
    ['no start time', { startedDateTime: 'yesterday' }, /entry 0 has no startedDateTime/],
  ])('names the entry and the field when an entry has %s', async (_what, change, message) => {
    const entry = toHarEntry(EXCHANGE) as unknown as Record<string, Record<string, unknown>>;
    const { request, response, ...rest } = change as Record<string, Record<string, unknown>>;
    const broken = {
      ...entry,
      ...rest,
      request: { ...entry.request, ...request },
      response: { ...entry.response, ...response },
    };
    const path = join(folder, 'odd-entry.har');
    await writeFile(
      path,
      JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [broken] } }),
    );
    await expect(readRecording(path)).rejects.toThrow(message);
  });
});

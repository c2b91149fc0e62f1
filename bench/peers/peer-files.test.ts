import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockoonEnvironment, prismDocument, recordsOfPage, writePeerFiles } from './peer-files.js';

const records = Array.from({ length: 100 }, (_, i) => ({ id: `t${i}`, amount: i }));
const page = JSON.stringify({ count: 150, next: null, previous: null, results: records });

describe('the peers’ files', () => {
  it('take the 100 records of the simulator’s page, and refuse a page that has not 100', () => {
    expect(recordsOfPage(page)).toEqual(records);
    expect(() => recordsOfPage(JSON.stringify({ results: records.slice(1) }))).toThrow(/100 records/);
  });

  it('give every peer the same records in its own shape', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ofkit-peer-files-'));
    try {
      const files = await writePeerFiles(folder, records, 4321);
      const db = JSON.parse(await readFile(files.jsonServerDb, 'utf8'));
      expect(db.transactions).toEqual(records);
      const environment = JSON.parse(await readFile(files.mockoonEnvironment, 'utf8'));
      expect(environment).toMatchObject({ port: 4321, hostname: '127.0.0.1' });
      expect(JSON.parse(environment.data[0].value)).toEqual(records);
      expect(environment.routes[0].responses[0]).toMatchObject({
        bodyType: 'DATABUCKET',
        databucketID: 'txns',
      });
      const document = JSON.parse(await readFile(files.prismDocument, 'utf8'));
      expect(
        document.paths['/transactions'].get.responses['200'].content['application/json'].example,
      ).toEqual(records);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('bind Mockoon to loopback and point its route at the bucket it defines', () => {
    const environment = mockoonEnvironment(records, 1) as {
      data: { id: string }[];
      routes: { responses: { databucketID: string }[] }[];
    };
    expect(environment.routes[0]!.responses[0]!.databucketID).toBe(environment.data[0]!.id);
    expect(prismDocument([])).toMatchObject({ openapi: '3.0.3' });
  });
});

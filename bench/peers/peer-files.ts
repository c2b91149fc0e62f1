/**
 * What each peer serves: the same 100 transaction records (the simulator's first page), each in the
 * peer's own shape and its own store. json-server: a collection in its database. Mockoon: a data
 * bucket served by a CRUD route. Prism: the example of a one-operation OpenAPI document (Prism's store
 * is the document). Each peer is asked for all 100 at once.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type TransactionRecords = readonly Record<string, unknown>[];

/** The path and query each peer answers with the 100 records. */
export const PEER_PATHS = {
  prism: '/transactions',
  'json-server': '/transactions?_page=1&_per_page=100',
  mockoon: '/transactions',
} as const;

/** The records of the simulator's page answer (`{count, next, previous, results}`). */
export function recordsOfPage(body: string): TransactionRecords {
  const page = JSON.parse(body) as { results?: unknown };
  if (!Array.isArray(page.results) || page.results.length !== 100)
    throw new Error("the simulator's page did not hold 100 records: the peers would not serve the same data");
  return page.results as TransactionRecords;
}

/** json-server's database: one collection. */
export function jsonServerDatabase(records: TransactionRecords): { transactions: TransactionRecords } {
  return { transactions: records };
}

const uuid = (last: number) => `0f1c0000-0000-4000-8000-${String(last).padStart(12, '0')}`;

/** A Mockoon environment (migration 33): a data bucket of the records and a CRUD route over it. */
export function mockoonEnvironment(records: TransactionRecords, port: number): Record<string, unknown> {
  return {
    uuid: uuid(1),
    lastMigration: 33,
    name: 'ofkit bench peer',
    port,
    hostname: '127.0.0.1',
    data: [{ uuid: uuid(2), id: 'txns', name: 'transactions', value: JSON.stringify(records) }],
    routes: [
      {
        uuid: uuid(3),
        type: 'crud',
        method: '',
        endpoint: 'transactions',
        responses: [
          {
            uuid: uuid(4),
            body: '',
            statusCode: 200,
            bodyType: 'DATABUCKET',
            databucketID: 'txns',
            default: true,
          },
        ],
      },
    ],
    rootChildren: [{ type: 'route', uuid: uuid(3) }],
  };
}

/** An OpenAPI 3.0 document whose one operation's example is the records (Prism answers with it). */
export function prismDocument(records: TransactionRecords): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'ofkit bench peer', version: '1.0.0' },
    paths: {
      '/transactions': {
        get: {
          responses: {
            '200': {
              description: 'The transactions',
              content: {
                'application/json': {
                  schema: { type: 'array', items: { type: 'object' } },
                  example: records,
                },
              },
            },
          },
        },
      },
    },
  };
}

export interface PeerFiles {
  jsonServerDb: string;
  mockoonEnvironment: string;
  prismDocument: string;
}

/** Writes the three peers' files into `folder` (the Mockoon environment names its port). */
export async function writePeerFiles(
  folder: string,
  records: TransactionRecords,
  mockoonPort: number,
): Promise<PeerFiles> {
  const files = {
    jsonServerDb: join(folder, 'json-server-db.json'),
    mockoonEnvironment: join(folder, 'mockoon-environment.json'),
    prismDocument: join(folder, 'prism-document.json'),
  };
  await writeFile(files.jsonServerDb, JSON.stringify(jsonServerDatabase(records)));
  await writeFile(files.mockoonEnvironment, JSON.stringify(mockoonEnvironment(records, mockoonPort)));
  await writeFile(files.prismDocument, JSON.stringify(prismDocument(records)));
  return files;
}

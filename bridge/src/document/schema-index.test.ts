/**
 * The schema index's member answers: kept per list of nodes and shared by equal lists (the walks key
 * their own caches by the arrays it hands out), the same for every name no node declares (a map
 * keyed by ids keeps the caches as small as the document), and never a property of Object.prototype.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../openapi/document/json.js';
import { createBridgeDocument } from './bridge-document.js';
import { schemaIndex } from './schema-index.js';

const document = createBridgeDocument({
  openapi: '3.1.0',
  info: { title: 'schema index', version: '1' },
  paths: {},
  components: {
    schemas: {
      Account: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          owner: { oneOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'null' }] },
          tags: { type: 'array', items: { type: 'string' } },
        },
      },
      Owner: { type: 'object', properties: { name: { type: 'string', 'x-personal': true } } },
      Balances: { type: 'object', additionalProperties: { type: 'number' } },
    },
  },
});

const schemas = (document.raw as { components: { schemas: Record<string, JsonObject> } }).components.schemas;

describe('the schema index', () => {
  const index = schemaIndex(document);

  it('answers a member with the same array each time, and for an equal list of nodes', () => {
    const first = index.staticChildren([schemas.Account!], 'tags');
    expect(first).toEqual([{ type: 'array', items: { type: 'string' } }]);
    expect(index.staticChildren([schemas.Account!], 'tags')).toBe(first);
    expect(index.children([schemas.Account!], 'owner')).toBe(index.children([schemas.Account!], 'owner'));
    // A member whose value picks its nodes (a oneOf) has no static answer.
    expect(index.staticChildren([schemas.Account!], 'owner')).toBeUndefined();
  });

  it('gives every name of a map the same answer, however many names it meets', () => {
    const parents = [schemas.Balances!];
    const answers = new Set<unknown>();
    for (let id = 0; id < 2_000; id++) answers.add(index.staticChildren(parents, `account-${id}`));
    expect(answers.size).toBe(1);
    expect([...answers][0]).toEqual([{ type: 'number' }]);
    expect(index.children(parents, 'another')).toEqual([{ type: 'number' }]);
  });

  it('reads no member of Object.prototype as a schema', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(index.children([schemas.Account!], name)).toEqual([]);
      expect(index.staticChildren([schemas.Account!], name)).toEqual([]);
    }
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { isObject } from '../../../openapi/document/json.js';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import { LAST_MONTH, registerLink } from '../../test-support/test-links.js';

let sim: CheckedSimulator;
beforeAll(async () => {
  sim = await contractCheckedSimulator('deprecated-fields');
});

/** The record schemas' members marked `deprecated: true` in the document. */
function deprecatedMembers(schemaName: string): string[] {
  const schemas = (sim.simulator.document.components as { schemas: Record<string, unknown> }).schemas;
  const schema = schemas[schemaName];
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  return Object.entries(properties)
    .filter(([, member]) => isObject(member) && member.deprecated === true)
    .map(([name]) => name);
}

describe('RESP-DEPRECATED', () => {
  // Whether the simulator's records carry them: they may (the provider sends the account's as null).
  const cases: [string, string, string, Record<string, string>, boolean][] = [
    ['Owner', '/api/owners/', 'bank', {}, true],
    ['Account', '/api/accounts/', 'bank', {}, true],
    ['Invoice', '/api/invoices/', 'mxFiscal', { ...LAST_MONTH, type: 'INFLOW' }, true],
  ];
  it.each(cases)(
    '%s: the document marks deprecated members, and the records may carry them',
    async (schemaName, path, kind, body, carried) => {
      const deprecated = deprecatedMembers(schemaName);
      expect(deprecated.length).toBeGreaterThan(0);
      const link = await registerLink(sim, kind as 'bank' | 'mxFiscal');
      const retrieved = await sim.call('POST', path, { body: { link, ...body } });
      expect(retrieved.status).toBe(201);
      // They may appear (the harness validated each record against the schema, deprecated members included).
      const seen = new Set(retrieved.body.flatMap((record: object) => Object.keys(record)));
      expect(deprecated.some((name) => seen.has(name))).toBe(carried);
    },
  );
});

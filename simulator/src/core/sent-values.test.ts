/**
 * The overlay of what the simulator sends (sent-values.ts) follows the document's names and only
 * narrows what the document allows, so an answer valid for the overlay is valid for the document.
 */
import { describe, expect, it } from 'vitest';
import { readBundledDocument } from '../../../openapi/document/bundled-documents.js';
import { isObject, type JsonObject, type JsonValue } from '../../../openapi/document/json.js';
import { SENT_VALUES, withSentValues } from './sent-values.js';

const api = readBundledDocument('api');
const schemas = (api.components as { schemas: Record<string, JsonObject> }).schemas;
const typesOf = (value: JsonValue | undefined) => (Array.isArray(value) ? value : [value]);

describe('what the simulator sends (the overlay on the document)', () => {
  it('names members the document has, and only narrows them', () => {
    for (const [name, members] of Object.entries(SENT_VALUES)) {
      for (const [member, constraints] of Object.entries(members)) {
        const where = `${name}.${member}`;
        const documented = (schemas[name]?.properties as Record<string, JsonObject> | undefined)?.[member];
        expect(documented, where).toBeDefined();
        for (const [keyword, value] of Object.entries(constraints)) {
          const own = documented?.[keyword];
          if (keyword === 'enum' && Array.isArray(own))
            for (const item of value as JsonValue[]) expect(own, where).toContain(item);
          else if (keyword === 'type')
            for (const type of typesOf(value)) expect(typesOf(own), where).toContain(type);
          else expect(own, `${where} already has ${keyword}`).toBeUndefined();
        }
      }
    }
  });

  it('merges into a copy: the document given is left as it was', () => {
    const before = JSON.stringify(api);
    const sent = withSentValues(api);
    expect(JSON.stringify(api)).toBe(before);
    const invoice = (sent.components as { schemas: Record<string, JsonObject> }).schemas.Invoice;
    const properties = isObject(invoice?.properties) ? invoice.properties : {};
    expect(properties.invoice_identification).toMatchObject({ format: 'uuid' });
    expect(properties.status).toMatchObject({ type: 'string', enum: ['Vigente', 'Cancelado'] });
  });

  it('fails at once on a name the document does not have', () => {
    const document = { components: { schemas: { Invoice: { type: 'object', properties: {} } } } };
    expect(() => withSentValues(document)).toThrow(/Account\.currency|Invoice\.invoice_identification/);
  });
});

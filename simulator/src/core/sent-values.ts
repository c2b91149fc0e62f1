/**
 * What the simulator sends (DATA-RETRIEVE's records, links, institutions), where it is stricter than
 * the document. The document describes the real API and is never stricter than the provider's
 * published schema without a reason the specification gives (a folio fiscal, a card's dates and a
 * currency are free strings there); the simulator still draws its values in these stricter shapes: a
 * fresh uuid for each folio fiscal, statement dates that move with the record, the link country's
 * currency, the SAT's two status words, the provider's one recurring frequency. The record generator
 * reads the document with this overlay on top, and the simulator's own tests check every answer against
 * the overlaid document, so what it sends is both valid for the document and exactly this.
 */
import { deepFreeze, isObject, type JsonObject } from '../../../openapi/document/json.js';
import { INVOICE_STATUS } from './invoice-status.js';

const CURRENCY = { pattern: '^[A-Z]{3}$' };
const DATE = { format: 'date' };
/** A Mexican RFC: 12 characters for a company, 13 for a person. */
const RFC = { pattern: '^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{3}$' };

/** Per component schema of the document, per member: the constraints merged over the member's schema. */
export const SENT_VALUES: Readonly<Record<string, Readonly<Record<string, JsonObject>>>> = {
  Account: { currency: CURRENCY },
  CreditData: { cutting_date: DATE, next_payment_date: DATE },
  Invoice: {
    invoice_identification: { format: 'uuid' },
    currency: CURRENCY,
    // INVOICE-CANCELLED: the SAT's words, never null.
    status: { type: 'string', enum: [INVOICE_STATUS.inForce, INVOICE_STATUS.cancelled] },
    sender_id: RFC,
    receiver_id: RFC,
  },
  RecurringExpense: { frequency: { enum: ['MONTHLY'] } },
  // The provider's integer ids, from 1.
  Institution: { id: { minimum: 1, maximum: 2_147_483_647 } },
  // The provider's form: 44 characters (32 bytes in base64url with its padding).
  Link: { institution_user_id: { pattern: '^[A-Za-z0-9_-]{43}=$' } },
  // TAX-RETURNS-MIXED: the two kinds the simulator tells apart (any other value reads yearly returns).
  TaxReturnsRetrieveRequest: { type: { enum: ['yearly', 'monthly'] } },
};

/**
 * The document with SENT_VALUES merged into its component schemas: a frozen copy, shared by every caller
 * with the same document (the document is not changed). Throws when a schema or member it names is not
 * in the document: the overlay must follow the document's names.
 */
export function withSentValues(document: JsonObject): JsonObject {
  let merged = mergedOf.get(document);
  if (merged === undefined) {
    merged = deepFreeze(mergeSentValues(document));
    mergedOf.set(document, merged);
  }
  return merged;
}

/** Each document's merge, made once (every simulator start asks for the shared bundled document's). */
const mergedOf = new WeakMap<JsonObject, JsonObject>();

function mergeSentValues(document: JsonObject): JsonObject {
  const copy = structuredClone(document);
  const schemas = isObject(copy.components) ? copy.components.schemas : undefined;
  for (const [name, members] of Object.entries(SENT_VALUES)) {
    const schema = isObject(schemas) ? schemas[name] : undefined;
    const properties = isObject(schema) ? schema.properties : undefined;
    for (const [member, constraints] of Object.entries(members)) {
      const property = isObject(properties) ? properties[member] : undefined;
      if (!isObject(properties) || !isObject(property)) {
        throw new Error(`SENT_VALUES names ${name}.${member}, which the document does not have`);
      }
      properties[member] = { ...property, ...constraints };
    }
  }
  return copy;
}

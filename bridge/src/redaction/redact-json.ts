/**
 * Redacts one JSON body beside its schema: a string under a credential's name (a password, an MFA
 * token or session) and every scalar inside a personal member (`x-personal`, unless personal data is
 * kept) becomes its pseudonym. Without a schema (an undocumented operation) only credentials are
 * found, by name.
 */
import { isObject, type JsonObject } from '../../../openapi/validation/document-ajv.js';
import type { BridgeDocument } from '../document/bridge-document.js';
import { childNodes, type Step } from '../document/schema-walk.js';
import { isPersonalSchema } from './personal-members.js';
import { isCredentialName } from './secret-places.js';

export type ValueKind = 'secret' | 'personal';

export interface JsonRedaction {
  document: BridgeDocument;
  keepPersonal: boolean;
  /** The pseudonym of a string or number of that kind, valid against the member's schema nodes. */
  pseudonym(value: string | number, kind: ValueKind, schemas: readonly JsonObject[]): string | number;
}

interface Place {
  schemas: readonly JsonObject[];
  /** Under a credential's name (arrays pass it to their items, objects do not). */
  secret: boolean;
  personal: boolean;
}

/** The redacted copy of `value` and whether anything changed. */
export function redactJson(
  redaction: JsonRedaction,
  value: unknown,
  schemas: readonly JsonObject[] | undefined,
): { value: unknown; changed: boolean } {
  let changed = false;
  const visit = (current: unknown, place: Place): unknown => {
    const personal = place.personal || (!redaction.keepPersonal && place.schemas.some(isPersonalSchema));
    if (typeof current === 'string' || typeof current === 'number') {
      const kind: ValueKind | undefined =
        place.secret && typeof current === 'string' ? 'secret' : personal ? 'personal' : undefined;
      if (kind === undefined) return current;
      const pseudonym = redaction.pseudonym(current, kind, place.schemas);
      if (pseudonym !== current) changed = true;
      return pseudonym;
    }
    if (Array.isArray(current))
      return current.map((item, index) => visit(item, child(place, personal, index, item, place.secret)));
    if (!isObject(current)) return current;
    const copy: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(current))
      copy[name] = visit(member, child(place, personal, name, member, isCredentialName(name)));
    return copy;
  };
  const child = (parent: Place, personal: boolean, step: Step, value: unknown, secret: boolean): Place => ({
    schemas: parent.schemas.length === 0 ? [] : childNodes(redaction.document, parent.schemas, step, value),
    secret,
    personal,
  });
  const redacted = visit(value, { schemas: schemas ?? [], secret: false, personal: false });
  return { value: redacted, changed };
}

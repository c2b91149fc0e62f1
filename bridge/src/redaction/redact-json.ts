/**
 * Redacts one JSON body beside its schema: a string under a credential's name (a password, an MFA
 * token or session) and every scalar inside a personal member (`x-personal`, unless personal data is
 * kept) becomes its pseudonym. Without a schema (an undocumented operation) only credentials are
 * found, by name. Copy on write: a value with nothing to redact is returned as it is, and a subtree
 * whose schema reaches no personal member is walked for credential names only.
 */
import { isObject, type JsonObject } from '../../../openapi/document/json.js';
import type { BridgeDocument } from '../document/bridge-document.js';
import { childNodes, type Step } from '../document/schema-walk.js';
import { isPersonalSchema, reachesPersonal } from './personal-members.js';
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

const NOWHERE: readonly JsonObject[] = [];

/** The redacted `value` (the same reference when nothing in it is redacted). */
export function redactJson(
  redaction: JsonRedaction,
  value: unknown,
  schemas: readonly JsonObject[] | undefined,
): unknown {
  const { document } = redaction;
  // Where something is to redact the schemas stay in view: a pseudonym must keep a `const` or a pattern.
  const tracked = (nodes: readonly JsonObject[], personal: boolean) =>
    nodes.length > 0 && (personal || nodes.some((node) => reachesPersonal(document, node)));
  const child = (parent: Place, personal: boolean, step: Step, member: unknown, secret: boolean): Place => ({
    schemas: tracked(parent.schemas, personal) ? childNodes(document, parent.schemas, step, member) : NOWHERE,
    secret,
    personal,
  });
  const visit = (current: unknown, place: Place): unknown => {
    const personal = place.personal || (!redaction.keepPersonal && place.schemas.some(isPersonalSchema));
    if (typeof current === 'string' || typeof current === 'number') {
      const kind: ValueKind | undefined =
        place.secret && typeof current === 'string' ? 'secret' : personal ? 'personal' : undefined;
      return kind === undefined ? current : redaction.pseudonym(current, kind, place.schemas);
    }
    if (Array.isArray(current)) {
      let copy: unknown[] | undefined;
      current.forEach((item, index) => {
        const redacted = visit(item, child(place, personal, index, item, place.secret));
        if (redacted === item) return;
        copy ??= [...current];
        copy[index] = redacted;
      });
      return copy ?? current;
    }
    if (!isObject(current)) return current;
    let copy: Record<string, unknown> | undefined;
    for (const [name, member] of Object.entries(current)) {
      const redacted = visit(member, child(place, personal, name, member, isCredentialName(name)));
      if (redacted === member) continue;
      copy ??= { ...current };
      copy[name] = redacted;
    }
    return copy ?? current;
  };
  return visit(value, { schemas: schemas ?? NOWHERE, secret: false, personal: false });
}

/**
 * Redacts one JSON body beside its schema: a string under a credential's name (a password, an MFA
 * token or session) and every scalar inside a personal member (`x-personal`, unless personal data is
 * kept) becomes its pseudonym. Without a schema (an undocumented operation) only credentials are
 * found, by name. Copy on write: a value with nothing to redact is returned as it is, and a subtree
 * whose schema reaches no personal member is walked for credential names only. A value nested past
 * MAX_JSON_DEPTH is refused (TooDeepError) rather than left to overflow the stack.
 *
 * A page of 100 records is some 5,000 members: what the walk asks of the schema about a member (is its
 * name a credential's, which nodes it has, can a scalar there be personal) is answered once per list
 * of nodes and member name and kept (a member plan), and a member holding null or a boolean, which
 * nothing redacts, is passed over without a question.
 */
import type { JsonObject } from '../../../openapi/document/json.js';
import type { BridgeDocument } from '../document/bridge-document.js';
import { childNodes, staticChildNodes } from '../document/schema-walk.js';
import { MAX_JSON_DEPTH } from '../exchange/exchange.js';
import { isPersonalSchema, reachesPersonal } from './personal-members.js';
import { isCredentialName } from './secret-places.js';

export type ValueKind = 'secret' | 'personal';

export interface JsonRedaction {
  document: BridgeDocument;
  keepPersonal: boolean;
  /** The pseudonym of a string or number of that kind, valid against the member's schema nodes. */
  pseudonym(value: string | number, kind: ValueKind, schemas: readonly JsonObject[]): string | number;
}

const NOWHERE: readonly JsonObject[] = [];

/** Thrown for a value that nests arrays and objects deeper than MAX_JSON_DEPTH: it cannot be walked. */
export class TooDeepError extends Error {
  override name = 'TooDeepError';
}

/** Per list of schema nodes (lists from the schema index come back as the same array): two facts. */
interface NodeFacts {
  /** Something to redact lies at or inside these nodes. */
  reaches: boolean;
  /** One of them is a personal member. */
  personal: boolean;
}

/** By node list: a list's nodes belong to one document, so the list alone is the key. */
const factsCache = new WeakMap<readonly JsonObject[], NodeFacts>();

function factsOf(document: BridgeDocument, nodes: readonly JsonObject[]): NodeFacts {
  let facts = factsCache.get(nodes);
  if (facts === undefined) {
    facts = {
      reaches: nodes.some((node) => reachesPersonal(document, node)),
      personal: nodes.some(isPersonalSchema),
    };
    factsCache.set(nodes, facts);
  }
  return facts;
}

/** What the walk asks about member `name` under a list of nodes where something is to redact. */
interface MemberPlan {
  credential: boolean;
  /** The member's nodes when its value does not pick them (the schema index keeps them), else undefined. */
  fixed: readonly JsonObject[] | undefined;
  /** Its nodes are known, and none is personal: a scalar there stays as it is (unless inherited or a credential's). */
  plain: boolean;
}

/** Member names kept per list of nodes (a map's keys are ids: the rest are planned each time). */
const MAX_PLANNED = 512;
const plansCache = new WeakMap<readonly JsonObject[], Map<string, MemberPlan>>();

function plansOf(nodes: readonly JsonObject[]): Map<string, MemberPlan> {
  let plans = plansCache.get(nodes);
  if (plans === undefined) {
    plans = new Map();
    plansCache.set(nodes, plans);
  }
  return plans;
}

function planOf(
  document: BridgeDocument,
  nodes: readonly JsonObject[],
  plans: Map<string, MemberPlan>,
  name: string,
): MemberPlan {
  let plan = plans.get(name);
  if (plan === undefined) {
    const fixed = staticChildNodes(document, nodes, name);
    plan = {
      credential: isCredentialName(name),
      fixed,
      plain: fixed !== undefined && fixed.length > 0 && !factsOf(document, fixed).personal,
    };
    if (plans.size < MAX_PLANNED) plans.set(name, plan);
  }
  return plan;
}

/** Null, booleans (and anything but strings, numbers, arrays and objects): nothing in them is redacted. */
const untouched = (value: unknown) =>
  value === null || (typeof value !== 'object' && typeof value !== 'string' && typeof value !== 'number');

/** The redacted `value` (the same reference when nothing in it is redacted). */
export function redactJson(
  redaction: JsonRedaction,
  value: unknown,
  schemas: readonly JsonObject[] | undefined,
): unknown {
  const { document, keepPersonal } = redaction;
  /**
   * `schemas`: the nodes of `current` (NOWHERE once nothing to redact lies below); `secret`: under a
   * credential's name (arrays pass it to their items, objects do not); `inherited`: inside a personal
   * member.
   */
  const visit = (
    current: unknown,
    nodes: readonly JsonObject[],
    secret: boolean,
    inherited: boolean,
    depth: number,
  ): unknown => {
    const facts = nodes.length === 0 ? undefined : factsOf(document, nodes);
    const personal = inherited || (!keepPersonal && facts !== undefined && facts.personal);
    if (typeof current === 'string' || typeof current === 'number') {
      // A PIN sent as a number is as secret as one sent as a string.
      const kind: ValueKind | undefined = secret ? 'secret' : personal ? 'personal' : undefined;
      return kind === undefined ? current : redaction.pseudonym(current, kind, nodes);
    }
    if (current === null || typeof current !== 'object') return current;
    if (depth === MAX_JSON_DEPTH) throw new TooDeepError(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    // Where something is to redact the schemas stay in view: a pseudonym must keep a `const` or a pattern.
    const tracked = facts !== undefined && (personal || facts.reaches);
    if (Array.isArray(current)) {
      let copy: unknown[] | undefined;
      for (let index = 0; index < current.length; index++) {
        const item: unknown = current[index];
        if (untouched(item)) continue;
        const below = tracked ? childNodes(document, nodes, index, item) : NOWHERE;
        const redacted = visit(item, below, secret, personal, depth + 1);
        if (redacted === item) continue;
        copy ??= [...current];
        copy[index] = redacted;
      }
      return copy ?? current;
    }
    const object = current as Record<string, unknown>;
    const plans = tracked ? plansOf(nodes) : undefined;
    let copy: Record<string, unknown> | undefined;
    for (const name in object) {
      const member = object[name];
      if (untouched(member)) continue;
      const scalar = typeof member !== 'object';
      let below = NOWHERE;
      let credential: boolean;
      if (plans === undefined) {
        credential = isCredentialName(name);
        // Outside every personal member, a scalar not under a credential's name stays as it is.
        if (scalar && !personal && !credential) continue;
      } else {
        const plan = planOf(document, nodes, plans, name);
        credential = plan.credential;
        if (scalar && !personal && !credential && plan.plain) continue;
        below = plan.fixed ?? childNodes(document, nodes, name, member);
      }
      const redacted = visit(member, below, credential, personal, depth + 1);
      if (redacted === member) continue;
      copy ??= { ...object };
      copy[name] = redacted;
    }
    return copy ?? current;
  };
  return visit(value, schemas ?? NOWHERE, false, false, 0);
}

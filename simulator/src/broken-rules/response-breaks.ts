/**
 * The serializer's breaks: faults of the stage that turns a handler's answer into JSON, applied to every
 * 2xx body (RESP-REQUIRED-NULLABLE, RESP-DEPRECATED). Without those rules broken the answer is untouched.
 */
import type { SimResponse } from '../core/http-types.js';
import type { BrokenRules } from './breakable-rules.js';

/** RESP-DEPRECATED: Balance's deprecated number member, whose column became text. */
const RETYPED_DEPRECATED = 'current_balance';

/** RESP-DEPRECATED: an account (its `category` is `*_ACCOUNT`), which gets its old numeric product id back. */
const isAccount = (value: Record<string, unknown>) =>
  typeof value.category === 'string' && value.category.endsWith('_ACCOUNT') && 'link' in value;

function rewrite(value: unknown, broken: BrokenRules): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, broken));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    // RESP-REQUIRED-NULLABLE broken: a serializer that omits null members (omitempty).
    if (member === null && broken.has('RESP-REQUIRED-NULLABLE')) continue;
    const retyped = name === RETYPED_DEPRECATED && typeof member === 'number';
    out[name] = retyped && broken.has('RESP-DEPRECATED') ? String(member) : rewrite(member, broken);
  }
  // RESP-DEPRECATED broken: the deprecated `bank_product_id` (a string) served from its old numeric column.
  if (broken.has('RESP-DEPRECATED') && isAccount(out)) out.bank_product_id = 1001;
  return out;
}

/** The response as the broken serializer renders it (the same response when neither rule is broken). */
export function breakResponse(response: SimResponse, broken: BrokenRules): SimResponse {
  if (!broken.has('RESP-REQUIRED-NULLABLE') && !broken.has('RESP-DEPRECATED')) return response;
  if (response.status >= 300) return response;
  const body = response.serialize ? JSON.parse(response.serialize().toString('utf8')) : response.body;
  if (body === undefined) return response;
  return { status: response.status, headers: response.headers, body: rewrite(body, broken) };
}

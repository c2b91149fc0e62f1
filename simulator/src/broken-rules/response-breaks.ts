/**
 * The serializer's breaks: faults of the stage that turns a handler's 2xx answer into JSON
 * (RESP-REQUIRED-NULLABLE, RESP-DEPRECATED), as rewrites of the body it renders.
 */
import type { SimResponse } from '../core/http-types.js';
import { type Edges, withStages } from './edges.js';

type Rewrite = (value: Record<string, unknown>) => Record<string, unknown>;

/** Applies `rewrite` to every object of a JSON value, innermost first. */
function everyObject(value: unknown, rewrite: Rewrite): unknown {
  if (Array.isArray(value)) return value.map((item) => everyObject(item, rewrite));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) out[name] = everyObject(member, rewrite);
  return rewrite(out);
}

function rewritten(response: SimResponse, rewrite: Rewrite): SimResponse {
  if (response.status >= 300) return response;
  const body = response.serialize ? JSON.parse(response.serialize().toString('utf8')) : response.body;
  if (body === undefined) return response;
  return { status: response.status, headers: response.headers, body: everyObject(body, rewrite) };
}

/** `edges` whose 2xx bodies go out through `rewrite`. */
export const rewriteSuccessBodies = (edges: Edges, rewrite: Rewrite): Edges =>
  withStages(edges, ({ renderSuccess }) => ({
    renderSuccess: (response) => renderSuccess(rewritten(response, rewrite)),
  }));

/** RESP-REQUIRED-NULLABLE broken: a serializer that omits null members (omitempty). */
export const omitNulls: Rewrite = (value) =>
  Object.fromEntries(Object.entries(value).filter(([, member]) => member !== null));

/** RESP-DEPRECATED: Balance's deprecated number member, whose column became text. */
const RETYPED_DEPRECATED = 'current_balance';

/** RESP-DEPRECATED: an account (its `category` is `*_ACCOUNT`), which gets its old numeric product id back. */
const isAccount = (value: Record<string, unknown>) =>
  typeof value.category === 'string' && value.category.endsWith('_ACCOUNT') && 'link' in value;

/** RESP-DEPRECATED broken: deprecated members served from their old columns, with their old types. */
export const oldDeprecatedColumns: Rewrite = (value) => {
  const out = { ...value };
  if (typeof out[RETYPED_DEPRECATED] === 'number') out[RETYPED_DEPRECATED] = String(out[RETYPED_DEPRECATED]);
  if (isAccount(out)) out.bank_product_id = 1001;
  return out;
};

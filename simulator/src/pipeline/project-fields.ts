/**
 * The provider's response shaping, `fields` and `omit`, on the operations whose document declares them:
 * `fields=a,b` keeps only the members `a` and `b` of every record the answer carries, `omit=a,b` drops
 * them; with both, `omit` applies to what `fields` kept. Only first-level members are named, and a kept
 * member keeps all it nests (the provider's own rule for these parameters); a name no member has (an
 * empty one, a nested path) is ignored, and a list that names nothing shapes nothing (choice: the
 * provider takes any string here, so none is refused). The records are the answer itself, the items of an array, or the `results` of a page;
 * a page's `count`, `next` and `previous` stay. Only records are shaped (200 and 201): errors are the
 * API's error array (ERR-BODY), and a 202's acknowledgement (`request_id`) is no record (choice).
 */
import { SHAPED_STATUSES } from '../../../openapi/document/projected-schema.js';
import type { SimResponse } from '../core/http-types.js';

type JsonRecord = Record<string, unknown>;
const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The names of a list; none at all (`fields=`, `fields=,`) shapes nothing, as if absent. */
function namesOf(raw: unknown): Set<string> | undefined {
  const names = typeof raw === 'string' ? raw.split(',').filter((name) => name !== '') : [];
  return names.length === 0 ? undefined : new Set(names);
}

function shapeRecord(record: unknown, keep: Set<string> | undefined, drop: Set<string> | undefined) {
  if (!isRecord(record)) return record;
  return Object.fromEntries(
    Object.entries(record).filter(([name]) => (keep === undefined || keep.has(name)) && !drop?.has(name)),
  );
}

/** The response with its records shaped by the request's `fields` and `omit`, when it has either. */
export function projectFields(response: SimResponse, query: Record<string, unknown>): SimResponse {
  const keep = namesOf(query.fields);
  const drop = namesOf(query.omit);
  if ((keep === undefined && drop === undefined) || !SHAPED_STATUSES.has(response.status)) return response;
  const { body } = response;
  const shape = (record: unknown) => shapeRecord(record, keep, drop);
  let shaped: unknown;
  if (Array.isArray(body)) shaped = body.map(shape);
  else if (isRecord(body) && Array.isArray(body.results) && 'count' in body)
    shaped = { ...body, results: body.results.map(shape) };
  else if (isRecord(body)) shaped = shape(body);
  else return response;
  // The handler's pre-serialized bytes are of the whole records: the adapter serializes the shaped body.
  return { status: response.status, headers: response.headers, body: shaped };
}

/**
 * EXCHANGE-HISTORY: each exchange's modification history, retrieved with the exchange and kept inside
 * its stored record (a private member), so deleting the exchange, or its link, deletes the history too.
 * GET `/api/br/exchanges/{id}/history/` lists it, oldest first, paginated.
 */
import { jsonMediaOf, resolveRef } from '../../../openapi/document/document-walk.js';
import { isObject, type JsonObject } from '../../../openapi/document/json.js';
import { type Handler, json } from '../core/handler.js';
import { ok } from '../core/result.js';
import { paginate } from '../pipeline/lists/list-query.js';
import { findOr404 } from '../pipeline/records.js';
import { type LinkContext, streamsOf } from './record-generation.js';
import { formatDay, parseDay } from './records/calendar.js';
import { generateRecords } from './records/record-generator.js';
import type { RecordTemplate } from './records/record-templates.js';

export const HISTORY_MEMBER = '_history';
const SCHEMA_REF = '#/components/schemas/';
/** Statuses an exchange reaches through an event of the same name. */
const CLOSING_EVENTS = new Set(['PARTIALLY_SETTLED', 'SETTLED', 'CANCELLED']);

/** The history's record template, from the history list's page schema and example (like a collection's). */
export function historyTemplate(document: JsonObject, path: string): RecordTemplate | null {
  const paths = isObject(document.paths) ? document.paths : {};
  const item = resolveRef(document, paths[path]);
  const get = isObject(item) && isObject(item.get) ? item.get : {};
  const media = jsonMediaOf(document, isObject(get.responses) ? get.responses['200'] : undefined);
  const page = resolveRef(document, media?.schema);
  const results = isObject(page) && isObject(page.properties) ? page.properties.results : undefined;
  const ref = isObject(results) && isObject(results.items) ? results.items.$ref : undefined;
  const example = media?.example;
  const examples =
    isObject(example) && Array.isArray(example.results) ? example.results.filter(isObject) : [];
  const components = isObject(document.components) ? document.components : {};
  const definitions = isObject(components.schemas) ? components.schemas : {};
  if (typeof ref !== 'string' || !ref.startsWith(SCHEMA_REF) || examples.length === 0) return null;
  const schemaName = ref.slice(SCHEMA_REF.length);
  const schema = definitions[schemaName];
  if (!isObject(schema)) return null;
  return {
    path,
    schemaName,
    schema,
    definitions,
    examples,
    mainDate: 'event_date',
    references: ['exchange'],
  };
}

/**
 * The exchange's history: one to three events between its operation date and its settlement (or
 * today), seeded by the exchange id. The first is `CREATED`; every event carries the contract's values;
 * the last one brings the exchange to its status (choice).
 */
export function historyOf(
  template: RecordTemplate,
  exchange: JsonObject,
  link: LinkContext,
  collectedAt: string,
  today: number,
): JsonObject[] {
  const deps = streamsOf(`${exchange.id}#history`);
  const status = String(exchange.status);
  const count = Math.max(deps.random.int(1, 3), status === 'OPEN' ? 1 : 2);
  const from = parseDay(String(exchange.operation_date));
  const settled = typeof exchange.settlement_date === 'string' ? parseDay(exchange.settlement_date) : today;
  const to = Math.max(from, Math.min(settled, today));
  const dateRange = { from: formatDay(from), to: formatDay(to) };
  const context = { link, collectedAt, references: { exchange: [String(exchange.id)] }, dateRange };
  const events = generateRecords(template, context, count, deps);
  events.sort((a, b) => String(a.event_date).localeCompare(String(b.event_date)));
  events.forEach((event, i) => {
    Object.assign(event, {
      local_amount: exchange.local_amount,
      foreign_amount: exchange.foreign_amount,
      exchange_rate: exchange.exchange_rate,
      settlement_date: exchange.settlement_date,
      status: i === events.length - 1 ? status : 'OPEN',
    });
    if (i === 0) {
      // The contract is created on its operation date (moving back keeps the instant before now).
      event.event_type = 'CREATED';
      event.event_date = `${String(exchange.operation_date)}${String(event.event_date).slice(10)}`;
    } else if (i === events.length - 1 && CLOSING_EVENTS.has(status)) event.event_type = status;
    else if (CLOSING_EVENTS.has(String(event.event_type)) || event.event_type === 'CREATED')
      event.event_type = 'AMOUNT_CHANGED';
  });
  return events;
}

/** EXCHANGE-HISTORY: the history of a stored exchange (ERR-404 for an unknown one), paginated (PAGE-*). */
export function listHistory(collection: string): Handler {
  return async ({ input, tenant, request }) => {
    const exchange = await findOr404(tenant, collection, input.path.id!);
    if (!exchange.ok) return exchange;
    const events = (exchange.value[HISTORY_MEMBER] as JsonObject[] | undefined) ?? [];
    return ok(json(200, paginate(events, input.query, request)));
  };
}

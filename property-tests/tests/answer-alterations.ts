/**
 * How the faulty proxy changes a JSON answer: realistic faults a server could have (each one a rule's
 * own violation) and harmless differences a faithful server may show. Each takes the request and the
 * parsed body and returns the body to send.
 */

/** The request an answer belongs to. */
export interface Asked {
  method: string;
  url: URL;
  status: number;
}

export interface BodyAlterations {
  /** FILTER-LOOKUP broken: `__icontains` matches the text only in the case it was given. */
  caseSensitiveIcontains?: boolean;
  /** TAX-RETURNS-MIXED broken: tax-return lists leave out the monthly returns. */
  taxReturnsWithoutMonthly?: boolean;
  /** LINK-MFA-428 broken: a 428's item carries no `session`. */
  mfaWithoutSession?: boolean;
  /** PAGE-DEFAULT broken: `next` and `previous` are relative (path and query only). */
  relativePageLinks?: boolean;
  /** Harmless: every JSON object's members in reverse order. */
  reversedMembers?: boolean;
  /** Harmless: these members (optional, deprecated ones) left out of every object. */
  omittedMembers?: readonly string[];
}

type Json = unknown;
type Page = { count: number; results: Json[]; next?: Json; previous?: Json };

const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isPage = (value: Json): value is Page => isObject(value) && Array.isArray(value.results);

/** Every string inside a value. */
function strings(value: Json): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  return isObject(value) ? Object.values(value).flatMap(strings) : [];
}

function mapObjects(value: Json, change: (object: Record<string, Json>) => Record<string, Json>): Json {
  if (Array.isArray(value)) return value.map((item) => mapObjects(item, change));
  if (!isObject(value)) return value;
  return change(
    Object.fromEntries(Object.entries(value).map(([key, child]) => [key, mapObjects(child, change)])),
  );
}

/** A page keeping only `keep`'s records, its `count` told down by as many. */
function filterPage(page: Page, keep: (record: Json) => boolean): Page {
  const results = page.results.filter(keep);
  return { ...page, count: page.count - (page.results.length - results.length), results };
}

function icontainsCaseSensitive(asked: Asked, body: Json): Json {
  const wanted = [...asked.url.searchParams].filter(([name]) => name.endsWith('__icontains'));
  if (asked.method !== 'GET' || wanted.length === 0 || !isPage(body)) return body;
  // The server compares as typed: a record whose texts hold the value only in another case is dropped.
  return filterPage(body, (record) =>
    wanted.every(([, value]) => strings(record).some((text) => text.includes(value))),
  );
}

function withoutMonthly(asked: Asked, body: Json): Json {
  if (asked.method !== 'GET' || !asked.url.pathname.startsWith('/api/tax-returns/') || !isPage(body))
    return body;
  return filterPage(body, (record) => !isObject(record) || String(record.type).toUpperCase() !== 'MONTHLY');
}

function withoutSession(asked: Asked, body: Json): Json {
  if (asked.status !== 428 || !Array.isArray(body)) return body;
  return body.map((item) => {
    if (!isObject(item)) return item;
    const { session: _session, ...rest } = item;
    return rest;
  });
}

function relativeLinks(body: Json): Json {
  if (!isPage(body)) return body;
  const relative = (link: Json) => {
    if (typeof link !== 'string') return link;
    const url = new URL(link);
    return `${url.pathname}${url.search}`;
  };
  return { ...body, next: relative(body.next), previous: relative(body.previous) };
}

/** The body after every alteration asked for. */
export function alterBody(alterations: BodyAlterations, asked: Asked, body: Json): Json {
  let altered = body;
  if (alterations.caseSensitiveIcontains) altered = icontainsCaseSensitive(asked, altered);
  if (alterations.taxReturnsWithoutMonthly) altered = withoutMonthly(asked, altered);
  if (alterations.mfaWithoutSession) altered = withoutSession(asked, altered);
  if (alterations.relativePageLinks) altered = relativeLinks(altered);
  const omitted = new Set(alterations.omittedMembers ?? []);
  if (omitted.size > 0)
    altered = mapObjects(altered, (object) =>
      Object.fromEntries(Object.entries(object).filter(([key]) => !omitted.has(key))),
    );
  if (alterations.reversedMembers)
    altered = mapObjects(altered, (object) => Object.fromEntries(Object.entries(object).reverse()));
  return altered;
}

/** Whether any alteration is asked for (a body is parsed and written again only then). */
export const altersBodies = (alterations: BodyAlterations) =>
  Object.values(alterations).some((value) => value === true || (Array.isArray(value) && value.length > 0));

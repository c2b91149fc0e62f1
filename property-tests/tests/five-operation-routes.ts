/**
 * The five operations of five-operation-server.ts: what each answers, with the list filters and the
 * `fields`/`omit` shaping the document declares (the filters read as the simulator's list machine
 * reads them, so that a filter rule's verdict is about the fault switched on, not about this test
 * server), and its faults.
 */
import { createHash, randomUUID } from 'node:crypto';
import { loadApiDocument } from '../../openapi/document/api-document.js';
import { declaredFilters, filterRecords } from '../../simulator/src/pipeline/lists/list-filters.js';
import type { StoredRecord } from '../../simulator/src/store/store.js';

export type Fault = 'ignores-fields' | 'constant-request-id' | 'unknown-link-400' | 'unknown-link-410';

/** An answer: a status and a JSON body (an error array's items get their `request_id` when sent). */
export interface Reply {
  status: number;
  body: unknown;
}

export interface Call {
  method: string;
  url: URL;
  text: string;
  links: Record<string, unknown>[];
  faults: ReadonlySet<Fault>;
}

const document = loadApiDocument();

/** Its own institutions: a Brazilian bank and a Mexican fiscal authority (none of the simulator's). */
const INSTITUTIONS = [
  { id: 1, name: 'acme_bank_br', display_name: 'Acme Bank', type: 'bank', country_codes: ['BR'] },
  { id: 2, name: 'acme_sat_mx', display_name: 'Acme SAT', type: 'fiscal', country_codes: ['MX'] },
].map((institution) => ({
  ...institution,
  status: 'healthy',
  website: null,
  integration_type: 'credentials',
  resources: institution.type === 'bank' ? ['ACCOUNTS', 'OWNERS'] : ['INVOICES'],
}));

/** The methods of each path it serves: the document's others answer 405. */
const PATHS: { pattern: RegExp; methods: Record<string, string | undefined> }[] = [
  { pattern: /^\/api\/$/, methods: { GET: 'getApiRoot' } },
  { pattern: /^\/api\/institutions\/$/, methods: { GET: 'listInstitutions' } },
  { pattern: /^\/api\/links\/$/, methods: { GET: 'listLinks', POST: 'registerLink', PATCH: undefined } },
  {
    pattern: /^\/api\/links\/[^/]+\/$/,
    methods: { GET: 'getLink', PATCH: undefined, PUT: undefined, DELETE: undefined },
  },
];

const error = (status: number, code: string, message: string, field?: string): Reply => ({
  status,
  body: [{ message, code, ...(field ? { field } : {}) }],
});

/** `fields` keeps, then `omit` drops, first-level members (names no member has are ignored). */
function shaped(record: Record<string, unknown>, url: URL, ignoreFields = false): Record<string, unknown> {
  const names = (name: string) =>
    url.searchParams
      .get(name)
      ?.split(',')
      .map((n) => n.trim());
  const fields = ignoreFields ? undefined : names('fields');
  const omit = names('omit') ?? [];
  return Object.fromEntries(
    Object.entries(record).filter(
      ([name]) => (fields ? fields.includes(name) : true) && !omit.includes(name),
    ),
  );
}

/** A page of `records` (page and page_size checked), `next`/`previous` carrying the request's query. */
function page(records: Record<string, unknown>[], call: Call, operationId: string): Reply {
  const { url } = call;
  const pageText = url.searchParams.get('page') ?? '1';
  const sizeText = url.searchParams.get('page_size') ?? '100';
  if (!/^-?\d+$/.test(pageText)) return error(400, 'invalid', 'page must be an integer.', 'page');
  if (!/^\d+$/.test(sizeText) || Number(sizeText) < 1)
    return error(400, 'invalid', 'page_size must be a positive integer.', 'page_size');
  const operation = document.operation(operationId)!;
  const declared = new Set(operation.parameters.map((p) => p.name));
  const query = Object.fromEntries([...url.searchParams].filter(([name]) => declared.has(name)));
  const kept = filterRecords(records as StoredRecord[], query, undefined, declaredFilters(operation));
  const size = Math.min(Number(sizeText), 1000);
  const number = Number(pageText);
  const link = (n: number) => {
    const next = new URL(url);
    next.searchParams.set('page', String(n));
    return next.href;
  };
  const ignoreFields = operationId === 'listLinks' && call.faults.has('ignores-fields');
  return {
    status: 200,
    body: {
      count: kept.length,
      next: number < 1 ? link(1) : number * size < kept.length ? link(number + 1) : null,
      previous: number > 1 ? link(number - 1) : null,
      results:
        number < 1
          ? []
          : kept.slice((number - 1) * size, number * size).map((r) => shaped(r, url, ignoreFields)),
    },
  };
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const json: unknown = JSON.parse(text);
    return typeof json === 'object' && json !== null && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function register(call: Call): Reply {
  const body = parse(call.text);
  if (!body) return error(400, 'invalid', 'The body is not a JSON object.');
  for (const member of ['institution', 'username']) {
    if (body[member] === undefined) return error(400, 'required', `${member} is required.`, member);
    if (typeof body[member] !== 'string') return error(400, 'invalid', `${member} must be a string.`, member);
  }
  if (!INSTITUTIONS.some((institution) => institution.name === body.institution))
    return error(400, 'invalid', `No institution ${String(body.institution)}.`, 'institution');
  const now = new Date().toISOString();
  const link = {
    id: randomUUID(),
    institution: body.institution,
    access_mode: body.access_mode === 'recurrent' ? 'recurrent' : 'single',
    status: 'valid',
    created_at: now,
    external_id: typeof body.external_id === 'string' ? body.external_id : null,
    last_accessed_at: now,
    fetch_resources: ['ACCOUNTS', 'OWNERS'],
    stale_in: '365d',
    credentials_storage: '27d',
    institution_user_id: createHash('sha256')
      .update(`${body.institution}/${body.username}`)
      .digest('base64url')
      .slice(0, 43)
      .concat('='),
    created_by: '6a2b1c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d',
    refresh_rate: body.access_mode === 'recurrent' ? '24h' : null,
  };
  call.links.push(link);
  return { status: 201, body: shaped(link, call.url) };
}

function detail(call: Call): Reply {
  const id = decodeURIComponent(call.url.pathname.split('/')[3] ?? '');
  const link = call.links.find((candidate) => candidate.id === id);
  if (link) return { status: 200, body: shaped(link, call.url) };
  if (call.faults.has('unknown-link-400'))
    return error(400, 'invalid', `${id} is not a valid link id.`, 'id');
  if (call.faults.has('unknown-link-410')) return error(410, 'gone', `Link ${id} is gone.`);
  return error(404, 'not_found', `No link ${id}.`);
}

/** The answer to an authenticated request. */
export function handleFiveOperations(call: Call): Reply {
  const path = PATHS.find((candidate) => candidate.pattern.test(call.url.pathname));
  if (!path) return error(404, 'not_found', `Nothing at ${call.url.pathname}.`);
  const operationId = path.methods[call.method];
  if (operationId === undefined)
    return error(405, 'method_not_allowed', `${call.method} is not allowed on ${call.url.pathname}.`);
  switch (operationId) {
    case 'getApiRoot':
      return { status: 200, body: { service: 'Team API', version: '1.223.0', environment: 'production' } };
    case 'listInstitutions':
      return page(INSTITUTIONS, call, operationId);
    case 'listLinks':
      return page(call.links, call, operationId);
    case 'registerLink':
      return register(call);
    default:
      return detail(call);
  }
}

// Every data call of the dashboard: the control API and the API, with the chosen key in the
// Authorization header (never in a URL), kept in sessionStorage only (gone with the tab).
const KEY = 'ofkit-dashboard-key';

/** The chosen key `{ id, secret }`, or null. */
export function currentKey() {
  const raw = sessionStorage.getItem(KEY);
  return raw ? JSON.parse(raw) : null;
}

export function chooseKey(key) {
  if (key) sessionStorage.setItem(KEY, JSON.stringify(key));
  else sessionStorage.removeItem(KEY);
  window.dispatchEvent(new Event('ofkit-key'));
}

/** One call; resolves with `{ status, ok, body }` whatever the status. */
export async function call(method, path, { body, query, key = currentKey(), headers: extra = {} } = {}) {
  // Marks the dashboard's own calls, so a request log can tell them from the client's.
  const headers = { 'x-ofkit-client': 'dashboard', ...extra };
  if (key) headers.authorization = `Basic ${btoa(`${key.id}:${key.secret}`)}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const search = query ? `?${new URLSearchParams(query)}` : '';
  const response = await fetch(`${path}${search}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
    credentials: 'omit',
  });
  const text = await response.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: response.status, ok: response.ok, body: parsed };
}

/** The API's error array as one line. */
export function errorText(result) {
  if (Array.isArray(result.body) && result.body[0]?.code) {
    return `${result.status} ${result.body.map((e) => `${e.code}: ${e.message}`).join('; ')}`;
  }
  return `HTTP ${result.status}`;
}

/** The body of a 2xx answer; throws with the error line otherwise. */
export async function read(method, path, options) {
  const result = await call(method, path, options);
  if (!result.ok) throw Object.assign(new Error(errorText(result)), { status: result.status });
  return result.body;
}

let documents;
/** The two OpenAPI documents the simulator serves beside the dashboard (forms and tables come from them). */
export function loadDocuments() {
  documents ??= Promise.all([
    fetch('admin.json').then((r) => r.json()),
    fetch('openapi.json').then((r) => r.json()),
  ]).then(([admin, api]) => ({ admin, api }));
  return documents;
}

// Requests: the simulator's request log (GET /_ofkit/requests/), read with a cursor (`after`), so each
// poll brings only the new entries; filterable; each with a copyable curl line (credentials masked).
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, currentKey, errorText, loadDocuments } from './api.js';
import { preamble, runnableCurl } from './curl-lines.js';
import { inline } from './markdown.js';
import { ErrorLine, html, separated, Table, Unavailable, usePoll, when } from './ui.js';

/** Entries kept in the page; older ones drop off (the log itself keeps its own bound). */
const KEPT = 500;

function Copy({ text, what = 'the curl line' }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    setDone(true);
    setTimeout(() => setDone(false), 1500);
  };
  return html`<button type="button" class="small" onClick=${copy} aria-label=${`Copy ${what}`}>${done ? 'Copied' : 'Copy'}</button>`;
}

function answered(r) {
  const rule = r.rule ? ` ${r.rule}` : '';
  return html`${r.status}${rule}${r.detail ? html`, ${inline(r.detail)}` : ''}`;
}

const COLUMNS = [
  { label: 'At (tenant clock)', get: (r) => when(r.at) },
  {
    label: 'Request',
    get: (r) =>
      html`<code class="path">${r.method} ${separated(`${r.path}${r.query ? `?${r.query}` : ''}`)}</code>`,
  },
  {
    label: 'Answer',
    get: (r) => html`<span class=${r.status >= 400 ? 'status-bad' : 'status-ok'}>${answered(r)}</span>`,
  },
  { label: 'Duration', get: (r) => `${r.duration_ms} ms` },
  {
    label: 'curl',
    get: (r) => {
      const line = runnableCurl(r.curl);
      return html`<span class="curl"><code class="path">${separated(line)}</code> <${Copy} text=${line} /></span>`;
    },
  },
];

function matches(r, filter) {
  const text =
    `${r.method} ${r.path} ${r.query} ${r.operation_id ?? ''} ${r.rule ?? ''} ${r.error_code ?? ''}`.toLowerCase();
  if (filter.text && !text.includes(filter.text.toLowerCase())) return false;
  if (filter.status === 'ok' && r.status >= 400) return false;
  if (filter.status === '4xx' && (r.status < 400 || r.status >= 500)) return false;
  if (filter.status === '5xx' && r.status < 500) return false;
  return true;
}

/** The `export` line every curl line below needs, pasted once before them. */
function Preamble({ lines }) {
  const key = currentKey();
  if (!key) return null;
  const text = preamble(key, lines);
  return html`<div class="preamble">
    <p class="hint">The curl lines read the key from variables: paste this first, then any line as printed.</p>
    <div class="curl"><pre><code>${text}</code></pre> <${Copy} text=${text} what="the export line" /></div>
  </div>`;
}

export function RequestsView() {
  const [documented, setDocumented] = useState(undefined);
  const [filter, setFilter] = useState({ text: '', status: 'all' });
  const log = useRef({ after: 0, entries: [], dropped: 0, missing: false });
  useEffect(() => {
    loadDocuments().then(({ admin }) => setDocumented(Boolean(admin.paths['/_ofkit/requests/'])));
  }, []);
  const { data, error } = usePoll(async () => {
    if (!documented) return log.current;
    const result = await call('GET', '/_ofkit/requests/', {
      query: { after: log.current.after, limit: 1000 },
    });
    if (result.status === 404) return { ...log.current, missing: true };
    if (!result.ok) throw new Error(errorText(result));
    const entries = [...log.current.entries, ...result.body.requests].slice(-KEPT);
    log.current = { after: result.body.next_after, entries, dropped: result.body.dropped, missing: false };
    return log.current;
  }, [documented]);
  if (documented === false || data?.missing)
    return html`<div class="view"><h2>Requests</h2><${Unavailable} what="The request log" /></div>`;
  const rows = (data?.entries ?? []).filter((r) => matches(r, filter)).reverse();
  return html`<div class="view">
    <h2>Requests</h2>
    <form class="inline-form" role="search" onSubmit=${(e) => e.preventDefault()}>
      <label>Filter <input type="search" value=${filter.text} placeholder="path, operation, rule, code"
        onInput=${(e) => setFilter({ ...filter, text: e.currentTarget.value })} /></label>
      <label>Status <select value=${filter.status} onChange=${(e) => setFilter({ ...filter, status: e.currentTarget.value })}>
        <option value="all">all</option><option value="ok">2xx-3xx</option><option value="4xx">4xx</option><option value="5xx">5xx</option>
      </select></label>
    </form>
    ${data?.dropped > 0 && html`<p class="hint">${data.dropped} older entries were dropped by the log's memory bound.</p>`}
    <${ErrorLine} error=${error} />
    ${rows.length > 0 && html`<${Preamble} lines=${rows.map((r) => r.curl)} />`}
    <${Table} caption="Requests, newest first" columns=${COLUMNS} rows=${rows} rowKey=${(r) => r.seq} empty="No request logged yet." />
  </div>`;
}

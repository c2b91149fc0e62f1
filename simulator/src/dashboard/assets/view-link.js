// A link's page: its details, actions (refresh, delete, access mode), records per resource (counts and
// a paginated table) and its events.
import { useEffect, useState } from 'preact/hooks';
import { loadDocuments, read } from './api.js';
import { SandboxControls } from './sandbox-controls.js';
import { Action, Badge, ErrorLine, html, Pager, Table, usePoll, when } from './ui.js';

/** Collections with a `link` filter in the API document: the link's records live there. */
function linkResources(api) {
  return Object.entries(api.paths)
    .filter(([path, item]) => path.startsWith('/api/') && !path.includes('{') && item.get)
    .filter(([, item]) =>
      (item.get.parameters ?? []).some(
        (p) => p.name === 'link' || /Link(Filter|Required)$/.test(p.$ref ?? ''),
      ),
    )
    .map(([path, item]) => ({ path, name: path.slice(5, -1), operationId: item.get.operationId }));
}

/** The first scalar members of the records: enough to tell them apart. */
function recordColumns(rows) {
  const first = rows[0] ?? {};
  const names = Object.keys(first)
    .filter((name) => name !== 'link' && (first[name] === null || typeof first[name] !== 'object'))
    .slice(0, 7);
  return names.map((name) => ({ label: name, get: (row) => String(row[name] ?? '—') }));
}

function Records({ link, resource }) {
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [resource.path]);
  const { data, error } = usePoll(
    () => read('GET', resource.path, { query: { link, page, page_size: 10 } }),
    [resource.path, page],
    5000,
  );
  return html`<div>
    <${ErrorLine} error=${error} />
    ${data && html`<${Table} caption=${`${resource.name} of the link`} columns=${recordColumns(data.results)} rows=${data.results} />`}
    <${Pager} page=${page} setPage=${setPage} data=${data} label=${resource.name} />
  </div>`;
}

function Resources({ link }) {
  const [counts, setCounts] = useState(undefined);
  const [chosen, setChosen] = useState(undefined);
  useEffect(() => {
    let stopped = false;
    (async () => {
      const { api } = await loadDocuments();
      const pages = await Promise.all(
        linkResources(api).map((resource) =>
          read('GET', resource.path, { query: { link, page_size: 1 } })
            .then((page) => ({ ...resource, count: page.count }))
            .catch(() => ({ ...resource, count: 0 })),
        ),
      );
      const found = pages.filter((resource) => resource.count > 0);
      if (!stopped) setCounts(found);
    })();
    return () => {
      stopped = true;
    };
  }, [link]);
  if (!counts) return html`<p class="hint">Counting the link's records…</p>`;
  if (counts.length === 0) return html`<p class="empty">No records stored for this link.</p>`;
  return html`<div>
    <ul class="buttons" aria-label="Resources">
      ${counts.map(
        (r) => html`<li key=${r.path}><button type="button" aria-pressed=${chosen?.path === r.path}
          onClick=${() => setChosen(r)}>${r.name} <span class="count">${r.count}</span></button></li>`,
      )}
    </ul>
    ${chosen && html`<${Records} link=${link} resource=${chosen} />`}
  </div>`;
}

function LinkEvents({ link }) {
  const { data, error } = usePoll(() => read('GET', '/_ofkit/events/', { query: { link } }), [link]);
  const columns = [
    { label: 'Created', get: (e) => when(e.created_at) },
    { label: 'Event', get: (e) => `${e.payload.webhook_type} ${e.payload.webhook_code}` },
    { label: 'Status', get: (e) => html`<${Badge} value=${e.status} />` },
    { label: 'Attempts', get: (e) => e.attempts.length },
  ];
  return html`<div><${ErrorLine} error=${error} />
    ${data && html`<${Table} caption="The link's events" columns=${columns} rows=${[...data].reverse()} empty="No event for this link." />`}</div>`;
}

export function LinkView({ id }) {
  const { data: link, error } = usePoll(() => read('GET', `/api/links/${id}/`), [id]);
  const other = link?.access_mode === 'recurrent' ? 'single' : 'recurrent';
  const remove = async () => {
    await read('DELETE', `/api/links/${id}/`);
    location.hash = '#/links';
  };
  return html`<div class="view">
    <p><a href="#/links">← All links</a></p>
    <h2>Link <code>${id}</code></h2>
    <${ErrorLine} error=${error} />
    ${
      link &&
      html`<dl class="facts">
      <div><dt>Institution</dt><dd>${link.institution}</dd></div>
      <div><dt>Access mode</dt><dd>${link.access_mode}</dd></div>
      <div><dt>Status</dt><dd><${Badge} value=${link.status} /></dd></div>
      <div><dt>Created</dt><dd>${when(link.created_at)}</dd></div>
      <div><dt>Last accessed</dt><dd>${when(link.last_accessed_at)}</dd></div>
    </dl>
    <p class="buttons">
      <${Action} label="Refresh" title="POST /api/links/{id}/refresh/" action=${() => read('POST', `/api/links/${id}/refresh/`)} />
      <${Action} label=${`Switch to ${other}`} title="PATCH /api/links/{id}/"
        action=${() => read('PATCH', `/api/links/${id}/`, { body: { access_mode: other } })} />
      <${Action} kind="danger" label="Delete" title="DELETE /api/links/{id}/" action=${remove} />
    </p>`
    }
    ${link && link.status !== 'unconfirmed' && html`<${SandboxControls} link=${id} />`}
    <h3>Records</h3>
    ${link && html`<${Resources} link=${id} />`}
    <h3>Events</h3>
    <${LinkEvents} link=${id} />
  </div>`;
}

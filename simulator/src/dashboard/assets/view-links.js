// Links: the tenant's links, newest first as the API lists them, live.
import { useState } from 'preact/hooks';
import { read } from './api.js';
import { DescribeLinkForm, RegisterLinkForm } from './link-forms.js';
import { Badge, ErrorLine, html, Pager, Table, usePoll, when } from './ui.js';

const COLUMNS = [
  { label: 'Link', get: (l) => html`<a href=${`#/links/${l.id}`}>${l.id}</a>` },
  { label: 'Institution', get: (l) => l.institution },
  { label: 'Access mode', get: (l) => l.access_mode },
  { label: 'Status', get: (l) => html`<${Badge} value=${l.status} />` },
  { label: 'Created', get: (l) => when(l.created_at) },
  { label: 'Last accessed', get: (l) => when(l.last_accessed_at) },
];

export function LinksView() {
  const [page, setPage] = useState(1);
  const { data, error } = usePoll(
    () => read('GET', '/api/links/', { query: { page, page_size: 20 } }),
    [page],
  );
  return html`<div class="view">
    <h2>Links</h2>
    <p class="hint">Registered through <code>POST /api/links/</code> (here or by your client); this list follows them live.</p>
    <${ErrorLine} error=${error} />
    ${
      data &&
      html`<${Table} caption="The tenant's links" columns=${COLUMNS} rows=${data.results}
      empty="No link yet: register one with POST /api/links/." />`
    }
    <${Pager} page=${page} setPage=${setPage} data=${data} label="Links" />
    <${RegisterLinkForm} />
    <${DescribeLinkForm} />
  </div>`;
}

// The dashboard's shell: the tenant, the navigation (hash routes, so every view has its own address)
// and the view of the moment. Each view polls only what it shows.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { currentKey, read } from './api.js';
import { html, usePoll, when } from './ui.js';
import { ClockView } from './view-clock.js';
import { EventsView } from './view-events.js';
import { JudgeView } from './view-judge.js';
import { LinkView } from './view-link.js';
import { LinksView } from './view-links.js';
import { PaymentsView } from './view-payments.js';
import { RequestsView } from './view-requests.js';
import { SwitchesView } from './view-switches.js';
import { TenantView } from './view-tenant.js';

const VIEWS = [
  ['tenant', 'Tenant'],
  ['links', 'Links'],
  ['clock', 'Clock'],
  ['events', 'Events'],
  ['switches', 'Scenarios & faults'],
  ['requests', 'Requests'],
  ['judge', 'Judge'],
  ['payments', 'Payments'],
];

function useHashRoute() {
  const parse = () => location.hash.replace(/^#\/?/, '').split('/');
  const [route, setRoute] = useState(parse);
  useEffect(() => {
    const changed = () => setRoute(parse());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}

function useKey() {
  const [key, setKey] = useState(currentKey);
  useEffect(() => {
    const changed = () => setKey(currentKey());
    window.addEventListener('ofkit-key', changed);
    return () => window.removeEventListener('ofkit-key', changed);
  }, []);
  return key;
}

function HeaderClock() {
  const { data } = usePoll(() => read('GET', '/_ofkit/clock/'), []);
  if (!data) return null;
  return html`<span class="header-clock" aria-live="off">
    Tenant clock: <strong>${when(data.now)}</strong> ${data.frozen ? '(frozen)' : '(following real time)'}
  </span>`;
}

function page(name, rest) {
  switch (name) {
    case 'links':
      return rest[0] ? html`<${LinkView} id=${rest[0]} />` : html`<${LinksView} />`;
    case 'clock':
      return html`<${ClockView} />`;
    case 'events':
      return html`<${EventsView} />`;
    case 'switches':
      return html`<${SwitchesView} />`;
    case 'requests':
      return html`<${RequestsView} />`;
    case 'judge':
      return html`<${JudgeView} />`;
    case 'payments':
      return html`<${PaymentsView} />`;
    default:
      return html`<${TenantView} />`;
  }
}

function App() {
  const [name, ...rest] = useHashRoute();
  const key = useKey();
  const current = key ? name || 'links' : 'tenant';
  useEffect(() => {
    const label = VIEWS.find(([id]) => id === current)?.[1] ?? 'Tenant';
    document.title = `${label} · ofkit simulator`;
  }, [current]);
  return html`<a class="skip" href="#main">Skip to the view</a>
    <header class="top">
      <h1>ofkit simulator</h1>
      ${key && html`<span class="tenant-chip">Tenant <strong>${key.id}</strong></span>`}
      ${key && html`<${HeaderClock} key=${key.id} />`}
    </header>
    <nav class="views" aria-label="Views">
      <ul>
        ${VIEWS.map(
          ([id, label]) => html`<li key=${id}>
            <a href=${`#/${id}`} aria-current=${id === current ? 'page' : undefined}>${label}</a>
          </li>`,
        )}
      </ul>
    </nav>
    <main id="main" tabindex="-1">${key || current === 'tenant' ? html`<div key=${key?.id}>${page(current, rest)}</div>` : null}</main>`;
}

const root = document.getElementById('app');
root.textContent = '';
render(html`<${App} />`, root);

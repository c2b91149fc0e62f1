// Shared pieces of the views: htm bound to Preact, polling, tables, buttons, formats.
import htm from 'htm';
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export const html = htm.bind(h);

/** How often a visible view re-reads what it shows (polling; see the README's Dashboard section). */
export const POLL_MS = 1000;

const changes = new EventTarget();
/** Tells every polling view to re-read now (after an action). */
export const poke = () => changes.dispatchEvent(new Event('change'));

/**
 * `load()` now, then every `ms` while the tab is visible, and at once after `poke()`; re-starts when
 * `deps` change. Returns `{ data, error }`; an error keeps the last data.
 */
export function usePoll(load, deps, ms = POLL_MS) {
  const [state, setState] = useState({ data: undefined, error: undefined });
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let stopped = false;
    let timer;
    let running = false;
    const tick = async () => {
      clearTimeout(timer);
      if (running) return;
      running = true;
      try {
        if (!document.hidden) {
          const data = await loadRef.current();
          if (!stopped) setState({ data, error: undefined });
        }
      } catch (error) {
        if (!stopped) setState((last) => ({ data: last.data, error: error.message ?? String(error) }));
      } finally {
        running = false;
        if (!stopped) timer = setTimeout(tick, ms);
      }
    };
    tick();
    changes.addEventListener('change', tick);
    return () => {
      stopped = true;
      clearTimeout(timer);
      changes.removeEventListener('change', tick);
    };
  }, deps);
  return state;
}

/** `2026-11-02T12:00:00.000Z` -> `2026-11-02 12:00:00 UTC`. */
export function when(iso) {
  if (!iso) return '—';
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

export const short = (id) => (id ? `${String(id).slice(0, 8)}…` : '—');

export function Badge({ value }) {
  const tone = String(value ?? '').toLowerCase();
  return html`<span class=${`badge badge-${tone}`}>${value ?? '—'}</span>`;
}

/** A wide table that scrolls on its own (reachable by keyboard) instead of the page. */
export function Table({ caption, columns, rows, empty = 'Nothing yet.', rowKey = (row) => row.id }) {
  if (!rows || rows.length === 0) return html`<p class="empty">${empty}</p>`;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label=${caption}>
    <table>
      <caption>${caption}</caption>
      <thead><tr>${columns.map((c) => html`<th scope="col">${c.label}</th>`)}</tr></thead>
      <tbody>
        ${rows.map((row, i) => html`<tr key=${rowKey(row) ?? i}>${columns.map((c) => html`<td>${c.get(row)}</td>`)}</tr>`)}
      </tbody>
    </table>
  </div>`;
}

/** Previous / next over a page of the API (`count`, `next`, `previous`). */
export function Pager({ page, setPage, data, label }) {
  if (!data) return null;
  return html`<nav class="pager" aria-label=${`${label} pages`}>
    <button type="button" disabled=${!data.previous} onClick=${() => setPage(page - 1)}>Previous</button>
    <span>Page ${page} · ${data.count} in all</span>
    <button type="button" disabled=${!data.next} onClick=${() => setPage(page + 1)}>Next</button>
  </nav>`;
}

/** A button that runs `action`, shows it is busy, reports a failure beside it and pokes the views. */
export function Action({ label, action, kind = '', title }) {
  const [state, setState] = useState({ busy: false, error: undefined });
  const run = async () => {
    setState({ busy: true, error: undefined });
    try {
      await action();
      setState({ busy: false, error: undefined });
    } catch (error) {
      setState({ busy: false, error: error.message ?? String(error) });
    }
    poke();
  };
  return html`<span class="action">
    <button type="button" class=${kind} title=${title} disabled=${state.busy} onClick=${run}>${label}</button>
    ${state.error && html`<span class="error" role="alert">${state.error}</span>`}
  </span>`;
}

export function ErrorLine({ error }) {
  return error ? html`<p class="error" role="alert">${error}</p>` : null;
}

export function Unavailable({ what }) {
  return html`<p class="notice" role="status">${what} is not available in this simulator yet.</p>`;
}

/**
 * A path, query or URL that may break only after `/`, `?`, `&` and spaces, never inside a segment (a
 * date's `-` is no separator): each segment is one unbreakable span, a `<wbr>` marks each place between.
 */
export function separated(text) {
  return String(text ?? '')
    .split(/(?<=[/?& ])/)
    .flatMap((part, index) => {
      const segment = html`<span class="segment">${part}</span>`;
      return index === 0 ? [segment] : [html`<wbr />`, segment];
    });
}

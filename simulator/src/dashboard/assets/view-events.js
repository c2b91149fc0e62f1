// Events and deliveries: the event log as a timeline, newest first, each delivery attempt, the retries
// still to come (WEBHOOK-RETRY), and re-send.
import { read } from './api.js';

/** The next jobs and the jobs a move ran come with `?include=jobs` (admin.yaml `IncludeJobs`). */
const JOBS = { query: { include: 'jobs' } };

import { Action, Badge, ErrorLine, html, usePoll, when } from './ui.js';

/** WEBHOOK-RETRY: five repetitions after the first delivery; repetition n waits n x the interval. */
const REPETITIONS = 5;

/** The next attempt as the clock has it, then the ones that follow if each fails. */
function toCome(event, jobs, interval) {
  const next = jobs.find((j) => j.kind === 'webhook retry' && j.subject === event.id);
  if (!next) return [];
  const times = [Date.parse(next.at)];
  for (let n = event.attempts.length + 1; n <= REPETITIONS; n += 1) {
    times.push(times[times.length - 1] + n * interval * 1000);
  }
  return times.map((t, i) => ({
    number: event.attempts.length + 1 + i,
    at: new Date(t).toISOString(),
    scheduled: i === 0,
  }));
}

function Attempt({ attempt, number }) {
  const outcome = attempt.status === null ? attempt.error : `HTTP ${attempt.status}`;
  const failed = attempt.status === null || attempt.status >= 300;
  return html`<li class=${failed ? 'attempt failed' : 'attempt ok'}>
    <span>#${number}</span> <span>${when(attempt.at)}</span> <strong>${outcome}</strong>
    ${attempt.status !== null && attempt.error ? html` <span>${attempt.error}</span>` : null}
    <span class="muted">${attempt.duration_ms} ms</span>
  </li>`;
}

function EventItem({ event, jobs, interval }) {
  const { webhook_type, webhook_code, link_id } = event.payload;
  const coming = toCome(event, jobs, interval);
  return html`<li class="event">
    <div class="event-head">
      <span class="muted">${when(event.created_at)}</span>
      <strong>${webhook_type} ${webhook_code}</strong>
      <${Badge} value=${event.status} />
      ${link_id && html`<a href=${`#/links/${link_id}`}>link ${link_id.slice(0, 8)}…</a>`}
      <${Action} label="Re-send" title="POST /_ofkit/events/{id}/resend/"
        action=${() => read('POST', `/_ofkit/events/${event.id}/resend/`)} />
    </div>
    <ol class="attempts" aria-label="Delivery attempts">
      ${event.attempts.map((a, i) => html`<${Attempt} key=${a.at + i} attempt=${a} number=${i + 1} />`)}
      ${coming.map(
        (c) => html`<li key=${`c${c.number}`} class="attempt coming">
          <span>#${c.number}</span> <span>${when(c.at)}</span>
          <em>${c.scheduled ? 'scheduled on the clock' : 'if the one before fails'}</em></li>`,
      )}
    </ol>
    <details><summary>Payload</summary><pre>${JSON.stringify(event.payload, null, 2)}</pre></details>
  </li>`;
}

export function EventsView() {
  const { data, error } = usePoll(async () => {
    const [events, clock, config] = await Promise.all([
      read('GET', '/_ofkit/events/'),
      read('GET', '/_ofkit/clock/', JOBS),
      read('GET', '/_ofkit/webhooks/'),
    ]);
    return { events, clock, config };
  }, []);
  return html`<div class="view">
    <h2>Events and deliveries</h2>
    ${
      data &&
      html`<p class="hint">Receiver: ${data.config.url ?? 'none (events are only logged)'} · mode ${data.config.mode} ·
      retry interval ${data.config.retry_interval_seconds} s</p>`
    }
    <${ErrorLine} error=${error} />
    ${data && data.events.length === 0 && html`<p class="empty">No event yet.</p>`}
    ${
      data &&
      html`<ol class="timeline" aria-label="Events, newest first">
      ${[...data.events]
        .reverse()
        .map(
          (e) =>
            html`<${EventItem} key=${e.id} event=${e} jobs=${data.clock.jobs ?? []} interval=${data.config.retry_interval_seconds} />`,
        )}
    </ol>`
    }
  </div>`;
}

// Clock: the tenant's time, frozen or following real time, the next jobs; set, freeze, advance, and
// the jobs each move ran.
import { useState } from 'preact/hooks';
import { read } from './api.js';

/** The next jobs and the jobs a move ran come with `?include=jobs` (admin.yaml `IncludeJobs`). */
const JOBS = { query: { include: 'jobs' } };

import { Action, ErrorLine, html, Table, usePoll, when } from './ui.js';

const STEPS = [
  ['+1 min', 60],
  ['+10 min', 600],
  ['+1 day', 86_400],
];

const JOB_COLUMNS = [
  { label: 'Due', get: (j) => when(j.at) },
  { label: 'Job', get: (j) => j.kind },
  { label: 'On', get: (j) => j.subject ?? '—' },
];

export function ClockView() {
  const { data: clock, error } = usePoll(() => read('GET', '/_ofkit/clock/', JOBS), []);
  const [ran, setRan] = useState(undefined);
  const [setForm, setSetForm] = useState({ now: '', frozen: true });
  const move = async (request) => {
    const moved = await request();
    setRan({ to: moved.now, jobs: moved.ran ?? [] });
  };
  const advance = (seconds) =>
    move(() => read('POST', '/_ofkit/clock/advance/', { ...JOBS, body: { seconds } }));
  const next = clock?.jobs?.[0];
  const toNext = () => {
    const seconds = Math.max(0.001, (Date.parse(next.at) - Date.parse(clock.now)) / 1000);
    return advance(seconds);
  };
  const submitSet = (event) => {
    event.preventDefault();
    const now = new Date(`${setForm.now}Z`).toISOString();
    move(() => read('PUT', '/_ofkit/clock/', { ...JOBS, body: { now, frozen: setForm.frozen } }));
  };
  return html`<div class="view">
    <h2>Clock</h2>
    <${ErrorLine} error=${error} />
    ${
      clock &&
      html`<p class="now" aria-live="polite">
      <span class="big">${when(clock.now)}</span>
      <span class=${`badge ${clock.frozen ? 'badge-frozen' : 'badge-following'}`}>${clock.frozen ? 'frozen' : 'following real time'}</span>
    </p>
    <div class="buttons" role="group" aria-label="Advance the clock">
      ${STEPS.map(([label, seconds]) => html`<${Action} key=${label} label=${label} action=${() => advance(seconds)} />`)}
      ${next ? html`<${Action} label="To the next job" title=${`${next.kind} at ${when(next.at)}`} action=${toNext} />` : html`<button type="button" disabled>To the next job</button>`}
      ${
        clock.frozen
          ? html`<${Action} label="Follow real time" action=${() => read('PUT', '/_ofkit/clock/', { body: { frozen: false } })} />`
          : html`<${Action} label="Freeze" action=${() => read('POST', '/_ofkit/clock/freeze/')} />`
      }
    </div>`
    }
    <form class="inline-form" onSubmit=${submitSet}>
      <label>Set to (UTC) <input type="datetime-local" step="1" required value=${setForm.now}
        onInput=${(e) => setSetForm({ ...setForm, now: e.currentTarget.value })} /></label>
      <label class="check"><input type="checkbox" checked=${setForm.frozen}
        onChange=${(e) => setSetForm({ ...setForm, frozen: e.currentTarget.checked })} /> frozen</label>
      <button type="submit">Set the clock</button>
    </form>
    ${
      ran &&
      html`<section aria-labelledby="ran-title" class="ran" aria-live="polite">
      <h3 id="ran-title">The last move ran ${ran.jobs.length} job${ran.jobs.length === 1 ? '' : 's'} (now ${when(ran.to)})</h3>
      <${Table} caption="Jobs that ran" columns=${JOB_COLUMNS} rows=${ran.jobs} rowKey=${(j) => `${j.at}${j.kind}${j.subject}`} empty="None fell due." />
    </section>`
    }
    <h3>Next scheduled jobs</h3>
    ${
      clock &&
      html`<${Table} caption="Next scheduled jobs" columns=${JOB_COLUMNS} rows=${clock.jobs ?? []}
      rowKey=${(j) => `${j.at}${j.kind}${j.subject}`} empty="No job is scheduled." />`
    }
  </div>`;
}

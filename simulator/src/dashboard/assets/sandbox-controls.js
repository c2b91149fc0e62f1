// A link's sandbox controls (the control API's Sandbox operations): fire any event of the catalogue
// for it now, at the tenant's receiver (POST /_ofkit/links/{id}/events/), and make it need new
// credentials or a token now (PUT /_ofkit/links/{id}/status/).
import { useEffect, useState } from 'preact/hooks';
import { loadDocuments, read } from './api.js';
import { Action, ErrorLine, html, poke } from './ui.js';

/** What an answer raised, in one line: the events sent, or why none was. */
function outcome(answer) {
  const sent = answer.events.map((e) => `${e.payload.webhook_type} ${e.payload.webhook_code}`);
  return answer.note ?? (sent.length > 0 ? `Sent ${sent.join(', ')}.` : 'No event was raised.');
}

export function SandboxControls({ link }) {
  const [events, setEvents] = useState([]);
  const [event, setEvent] = useState('');
  const [said, setSaid] = useState({});
  useEffect(() => {
    loadDocuments().then(({ admin }) => {
      const names = admin.components.schemas.LinkEventName.enum;
      setEvents(names);
      setEvent(names[0]);
    });
  }, []);
  const fire = async (submitted) => {
    submitted.preventDefault();
    try {
      const answer = await read('POST', `/_ofkit/links/${link}/events/`, { body: { event } });
      setSaid({ line: outcome(answer) });
      // LINK-DELETE-ASYNC: the link is gone; its events stay in the Events view.
      if (answer.link_status === null) location.hash = '#/events';
    } catch (error) {
      setSaid({ error: error.message });
    }
    poke();
  };
  const setStatus = (status) => async () => {
    const answer = await read('PUT', `/_ofkit/links/${link}/status/`, { body: { status } });
    setSaid({ line: outcome(answer) });
  };
  return html`<section aria-labelledby="sandbox-title">
    <h3 id="sandbox-title">Sandbox</h3>
    <form class="inline-form" aria-label="Fire an event" onSubmit=${fire}>
      <label>Event of the catalogue <select value=${event} onChange=${(e) => setEvent(e.currentTarget.value)}>
        ${events.map((name) => html`<option key=${name} value=${name}>${name}</option>`)}
      </select></label>
      <button type="submit">Fire the event</button>
    </form>
    <p class="buttons">
      <${Action} label="Needs new credentials" title="PUT /_ofkit/links/{id}/status/ invalid" action=${setStatus('invalid')} />
      <${Action} label="Needs a token" title="PUT /_ofkit/links/{id}/status/ token_required" action=${setStatus('token_required')} />
    </p>
    ${said.line && html`<p class="ok-line" role="status">${said.line}</p>`}
    <${ErrorLine} error=${said.error} />
  </section>`;
}

// Tenant: which key (tenant) the dashboard acts as, the tenant's webhook receiver, and reset.
import { useEffect, useState } from 'preact/hooks';
import { call, chooseKey, currentKey, errorText, read } from './api.js';
import { SnapshotButtons } from './snapshot-buttons.js';
import { Action, ErrorLine, html, usePoll } from './ui.js';

function KeyPicker() {
  const [offered, setOffered] = useState(undefined);
  const [form, setForm] = useState({ id: '', secret: '' });
  const [error, setError] = useState(undefined);
  useEffect(() => {
    // 404 off loopback: the user enters a key instead.
    call('GET', 'keys', { key: null }).then((r) => setOffered(r.ok ? r.body : null));
  }, []);
  const use = async (key) => {
    const check = await call('GET', '/_ofkit/clock/', { key });
    if (!check.ok) return setError(`That key was refused: ${errorText(check)}`);
    setError(undefined);
    chooseKey(key);
    if (!location.hash || location.hash === '#/tenant') location.hash = '#/links';
  };
  const submit = (event) => {
    event.preventDefault();
    use({ id: form.id.trim(), secret: form.secret });
  };
  return html`<section aria-labelledby="key-title">
    <h2 id="key-title">Choose a tenant</h2>
    <p>
      The dashboard acts as one API key (one tenant), sent in the <code>Authorization</code> header and kept only in this tab (session storage).
    </p>
    ${
      offered?.keys?.length > 0 &&
      html`<div class="offered">
      <p>Keys this simulator was started with (${offered.environment}; offered on loopback only):</p>
      <ul class="buttons">
        ${offered.keys.map(
          (
            k,
          ) => html`<li key=${k.secret_id}><button type="button" onClick=${() => use({ id: k.secret_id, secret: k.secret_password })}>
            Use ${k.secret_id}</button></li>`,
        )}
      </ul>
    </div>`
    }
    <form class="inline-form" onSubmit=${submit}>
      <label>Secret id <input name="secret-id" autocomplete="off" required value=${form.id}
        onInput=${(e) => setForm({ ...form, id: e.currentTarget.value })} /></label>
      <label>Secret password <input name="secret-password" type="password" autocomplete="off" required
        value=${form.secret} onInput=${(e) => setForm({ ...form, secret: e.currentTarget.value })} /></label>
      <button type="submit">Use this key</button>
    </form>
    <${ErrorLine} error=${error} />
  </section>`;
}

function WebhookConfig() {
  const { data, error } = usePoll(() => read('GET', '/_ofkit/webhooks/'), [], 5000);
  const [draft, setDraft] = useState(undefined);
  const config = draft ?? data;
  if (!config) return html`<${ErrorLine} error=${error} />`;
  const field = (name) => (e) => setDraft({ ...config, [name]: e.currentTarget.value });
  const save = async () => {
    const body = {
      url: config.url || null,
      bearer_token: config.bearer_token || null,
      mode: config.mode,
      retry_interval_seconds: Number(config.retry_interval_seconds),
      daily_refresh_time: config.daily_refresh_time,
    };
    await read('PUT', '/_ofkit/webhooks/', { body });
    setDraft(undefined);
  };
  return html`<section aria-labelledby="webhook-title">
    <h2 id="webhook-title">Webhook receiver</h2>
    <form class="grid-form" onSubmit=${(e) => e.preventDefault()}>
      <label>Receiver URL <input type="url" value=${config.url ?? ''} onInput=${field('url')} placeholder="none: events are only logged" /></label>
      <label>Bearer token <input type="password" value=${config.bearer_token ?? ''} onInput=${field('bearer_token')} autocomplete="off" /></label>
      <label>Mode <select value=${config.mode} onChange=${field('mode')}>
        <option value="deliver">deliver</option><option value="record">record</option></select></label>
      <label>Retry interval (s) <input type="number" min="1" value=${config.retry_interval_seconds} onInput=${field('retry_interval_seconds')} /></label>
      <label>Daily refresh (UTC) <input pattern="[0-2][0-9]:[0-5][0-9]" value=${config.daily_refresh_time} onInput=${field('daily_refresh_time')} /></label>
      <div class="form-actions"><${Action} label="Save the receiver" action=${save} /></div>
    </form>
    <${ErrorLine} error=${error} />
  </section>`;
}

export function TenantView() {
  const key = currentKey();
  return html`<div class="view">
    ${
      key &&
      html`<section aria-labelledby="current-title">
      <h2 id="current-title">Tenant ${key.id}</h2>
      <p class="buttons">
        <button type="button" onClick=${() => chooseKey(null)}>Use another key</button>
        <${Action} kind="danger" label="Reset this tenant" title="POST /_ofkit/reset/"
          action=${() => read('POST', '/_ofkit/reset/')} />
      </p>
    </section>`
    }
    ${key ? html`<${WebhookConfig} /><${SnapshotButtons} />` : html`<${KeyPicker} />`}
  </div>`;
}

// The forms that make a link: register one through the API (POST /api/links/), resuming with a token
// when the institution answers 428 (LINK-MFA-428: PATCH /api/links/), and create one from a description
// of its institution, accounts and records (the control API's POST /_ofkit/links/).
import { useEffect, useState } from 'preact/hooks';
import { call, errorText, loadDocuments, read } from './api.js';
import { ErrorLine, html, poke } from './ui.js';

/** The tenant's institutions (`GET /api/institutions/`): name, label and form fields. */
function useInstitutions() {
  const [institutions, setInstitutions] = useState([]);
  useEffect(() => {
    read('GET', '/api/institutions/', { query: { page_size: 1000 } })
      .then((page) => setInstitutions(page.results))
      .catch(() => setInstitutions([]));
  }, []);
  return institutions;
}

function Created({ link, how }) {
  return html`<p class="ok-line" role="status">${how} <a href=${`#/links/${link.id}`}>${link.id}</a> (${link.institution}).</p>`;
}

/** LINK-MFA-428: the 428's session, resumed with the token the end-user got. */
function TokenForm({ pause, onDone }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(undefined);
  const resume = async (event) => {
    event.preventDefault();
    const body = { session: pause.session, token, link: pause.link };
    const answer = await call('PATCH', '/api/links/', { body });
    if (!answer.ok) return setError(errorText(answer));
    onDone(answer.body);
  };
  return html`<form class="inline-form" aria-label="Resume with the token" onSubmit=${resume}>
    <p class="notice" role="status">The institution asks for a token (428 token_required): session <code>${pause.session}</code>,
      valid ${pause.expiry} s. ${pause.token_generation_data?.instructions ?? ''} The simulator accepts <code>123456</code>.</p>
    <label>Token <input name="token" autocomplete="one-time-code" required value=${token}
      onInput=${(e) => setToken(e.currentTarget.value)} /></label>
    <button type="submit">Resume the registration</button>
    <${ErrorLine} error=${error} />
  </form>`;
}

export function RegisterLinkForm() {
  const institutions = useInstitutions();
  const [form, setForm] = useState({
    institution: 'ofbank_br_retail',
    username: '',
    password: '',
    access_mode: 'single',
  });
  const [state, setState] = useState({});
  const chosen = institutions.find((i) => i.name === form.institution);
  const fields = (chosen?.form_fields ?? []).filter((f) => f.name === 'username' || f.name === 'password');
  const set = (name) => (e) => setForm({ ...form, [name]: e.currentTarget.value });
  const done = (link) => {
    setState({ created: link });
    poke();
  };
  const submit = async (event) => {
    event.preventDefault();
    const body = { institution: form.institution, access_mode: form.access_mode };
    for (const field of fields) if (form[field.name]) body[field.name] = form[field.name];
    const answer = await call('POST', '/api/links/', { body });
    if (answer.status === 428) return setState({ pause: answer.body[0] });
    if (!answer.ok) return setState({ error: errorText(answer) });
    done(answer.body);
  };
  return html`<section aria-labelledby="register-title">
    <h3 id="register-title">Register a link</h3>
    <form class="grid-form" aria-label="Register a link" onSubmit=${submit}>
      <label>Institution <select value=${form.institution} onChange=${set('institution')}>
        ${institutions.map((i) => html`<option key=${i.name} value=${i.name}>${i.name} · ${i.display_name}</option>`)}
      </select></label>
      ${fields.map(
        (f) => html`<label key=${f.name}>${f.label} (${f.name})
          <input name=${f.name} type=${f.type === 'password' ? 'password' : 'text'} autocomplete="off"
            required=${!f.optional} value=${form[f.name]} onInput=${set(f.name)} />
          ${f.name === 'username' && html`<small>Starting with <code>mfa</code>, the institution asks for a token.</small>`}
        </label>`,
      )}
      <label>Access mode <select value=${form.access_mode} onChange=${set('access_mode')}>
        <option value="single">single</option><option value="recurrent">recurrent</option></select></label>
      <div class="form-actions"><button type="submit">Register the link</button></div>
    </form>
    ${state.pause && html`<${TokenForm} pause=${state.pause} onDone=${done} />`}
    <${ErrorLine} error=${state.error} />
    ${state.created && html`<${Created} link=${state.created} how="Registered" />`}
  </section>`;
}

/** The example of createDescribedLink in admin.yaml: the form starts from it. */
async function exampleDescription() {
  const { admin } = await loadDocuments();
  const example = admin.paths['/_ofkit/links/'].post.requestBody.content['application/json'].example;
  return JSON.stringify(example, null, 2);
}

export function DescribeLinkForm() {
  const [text, setText] = useState('');
  const [state, setState] = useState({});
  useEffect(() => {
    exampleDescription().then(setText);
  }, []);
  const submit = async (event) => {
    event.preventDefault();
    let body;
    try {
      body = JSON.parse(text);
    } catch (error) {
      return setState({ error: `The description is not JSON: ${error.message}` });
    }
    const answer = await call('POST', '/_ofkit/links/', { body });
    if (!answer.ok) return setState({ error: errorText(answer) });
    setState({ created: answer.body });
    poke();
  };
  const held = state.created && Object.entries(state.created.records).map(([name, n]) => `${n} ${name}`);
  return html`<section aria-labelledby="describe-title">
    <h3 id="describe-title">Create a link from a description</h3>
    <form aria-label="Create a link from a description" onSubmit=${submit}>
      <label>Institution, accounts and records (JSON; the simulator fills in the rest)
        <textarea spellcheck="false" value=${text} onInput=${(e) => setText(e.currentTarget.value)}></textarea></label>
      <p class="buttons"><button type="submit">Create the link</button></p>
    </form>
    <${ErrorLine} error=${state.error} />
    ${state.created && html`<${Created} link=${state.created.link} how=${`Created (${held.join(', ')})`} />`}
  </section>`;
}

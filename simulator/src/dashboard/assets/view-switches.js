// Scenarios and faults: arm and disarm each, with forms built from the control API's document
// (ScenarioRequest, FaultRequest), so a new switch or field shows up here without a change.
import { useEffect, useState } from 'preact/hooks';
import { loadDocuments, read } from './api.js';
import { FaultForm } from './fault-form.js';
import { inline, Markdown } from './markdown.js';
import { Action, ErrorLine, html, poke, Table, usePoll } from './ui.js';

const schemaOf = (admin, name) => admin.components.schemas[name];
const resolve = (admin, schema) => (schema?.$ref ? schemaOf(admin, schema.$ref.split('/').pop()) : schema);

/** `- \`name\`: what it does` lines of a schema description, by name. */
function optionNotes(description = '') {
  const notes = {};
  for (const match of description.matchAll(/- `([^`]+)`: (.+)/g)) notes[match[1]] = match[2];
  return notes;
}

function Field({ admin, name, schema, required, value, onInput }) {
  const resolved = resolve(admin, schema);
  const id = `field-${name}`;
  const hint = resolved.description && !resolved.enum ? resolved.description : schema.description;
  if (resolved.enum) {
    const notes = optionNotes(resolved.description);
    return html`<label for=${id}>${name}${required ? ' (required)' : ''}
      <select id=${id} required=${required} value=${value ?? ''} onChange=${(e) => onInput(e.currentTarget.value)}>
        ${!required && html`<option value="">—</option>`}
        ${resolved.enum.map((option) => html`<option value=${String(option)}>${option}</option>`)}
      </select>
      ${notes[value] && html`<small>${inline(notes[value])}</small>`}
    </label>`;
  }
  const numeric = resolved.type === 'integer' || resolved.type === 'number';
  return html`<label for=${id}>${name}${required ? ' (required)' : ''}
    <input id=${id} type=${numeric ? 'number' : 'text'} min=${resolved.minimum} required=${required}
      placeholder=${resolved.default === undefined ? '' : `default ${resolved.default}`}
      value=${value ?? ''} onInput=${(e) => onInput(e.currentTarget.value)} />
    ${hint && html`<small><${Markdown} text=${hint} /></small>`}
  </label>`;
}

/** The request body of `schemaName` from the form's text values: numbers as numbers, blanks left out. */
function toBody(admin, schema, values) {
  const body = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const raw = values[name];
    if (raw === undefined || raw === '') continue;
    const type = resolve(admin, property).type;
    body[name] = type === 'integer' || type === 'number' ? Number(raw) : raw;
  }
  return body;
}

function SchemaForm({ admin, schemaName, title, submitLabel, onSubmit }) {
  const schema = schemaOf(admin, schemaName);
  const required = new Set(schema.required ?? []);
  const first = Object.fromEntries(
    [...required].map((name) => [name, String(resolve(admin, schema.properties[name]).enum?.[0] ?? '')]),
  );
  const [values, setValues] = useState(first);
  const [error, setError] = useState(undefined);
  const submit = async (event) => {
    event.preventDefault();
    try {
      await onSubmit(toBody(admin, schema, values));
      setError(undefined);
    } catch (failure) {
      setError(failure.message);
    }
    poke();
  };
  return html`<form class="grid-form" aria-label=${title} onSubmit=${submit}>
    ${Object.entries(schema.properties).map(
      ([name, property]) => html`<${Field} key=${name} admin=${admin} name=${name} schema=${property}
        required=${required.has(name)} value=${values[name]}
        onInput=${(value) => setValues({ ...values, [name]: value })} />`,
    )}
    <div class="form-actions"><button type="submit">${submitLabel}</button></div>
    <${ErrorLine} error=${error} />
  </form>`;
}

export function SwitchesView() {
  const [docs, setDocs] = useState(undefined);
  useEffect(() => {
    loadDocuments().then(setDocs);
  }, []);
  const { data, error } = usePoll(async () => {
    const [scenarios, faults] = await Promise.all([
      read('GET', '/_ofkit/scenarios/'),
      read('GET', '/_ofkit/faults/'),
    ]);
    return { scenarios, faults };
  }, []);
  if (!docs) return html`<p class="hint">Reading the control API's document…</p>`;
  const arm = (path) => async (body) => {
    await read('POST', path, { body });
  };
  const scenarioColumns = [
    { label: 'Scenario', get: (s) => s.scenario },
    { label: 'Institution', get: (s) => s.institution ?? '—' },
    { label: 'Link', get: (s) => s.link ?? '—' },
    { label: 'Remaining', get: (s) => s.remaining ?? 'until cleared' },
    {
      label: 'Action',
      get: (s) =>
        html`<${Action} label="Disarm" action=${() => read('DELETE', `/_ofkit/scenarios/${s.id}/`)} />`,
    },
  ];
  const faultColumns = [
    { label: 'Operation', get: (f) => f.operation_id },
    { label: 'Answer', get: (f) => f.status },
    { label: 'Remaining', get: (f) => f.remaining },
    {
      label: 'Action',
      get: (f) =>
        html`<${Action} label="Disarm" action=${() => read('DELETE', `/_ofkit/faults/${f.id}/`)} />`,
    },
  ];
  return html`<div class="view">
    <h2>Scenarios and faults</h2>
    <${ErrorLine} error=${error} />
    <section aria-labelledby="scenarios-title">
      <h3 id="scenarios-title">Scenario switches</h3>
      ${data && html`<${Table} caption="Armed scenarios" columns=${scenarioColumns} rows=${data.scenarios} empty="No scenario armed." />`}
      <${SchemaForm} admin=${docs.admin} schemaName="ScenarioRequest" title="Arm a scenario" submitLabel="Arm the scenario"
        onSubmit=${arm('/_ofkit/scenarios/')} />
    </section>
    <section aria-labelledby="faults-title">
      <h3 id="faults-title">Faults (ERR-500-408)</h3>
      ${data && html`<${Table} caption="Armed faults" columns=${faultColumns} rows=${data.faults} empty="No fault armed." />`}
      <${FaultForm} api=${docs.api} onSubmit=${arm('/_ofkit/faults/')} />
    </section>
  </div>`;
}

// The fault form (admin.yaml FaultRequest, ERR-500-408): every operation of the API document, found by
// searching its id, method or path, and for the chosen one the statuses it documents that a fault can
// give (500 by default; 400 is the Too Many Sessions error, CLIENT-TOO-MANY-SESSIONS).
import { useMemo, useState } from 'preact/hooks';
import { ErrorLine, html, poke } from './ui.js';

/** The statuses FaultRequest accepts, most common first: 500 is the default. */
const FAULT_STATUSES = [
  [500, '500 internal server error'],
  [408, '408 request timeout'],
  [400, '400 Too Many Sessions (too_many_sessions)'],
];

/** Every operation of the API document: its id, method, path and documented statuses. */
function operationsOf(api) {
  const found = [];
  for (const [path, item] of Object.entries(api.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation?.operationId) continue;
      const statuses = new Set(Object.keys(operation.responses ?? {}).map(Number));
      found.push({ id: operation.operationId, method: method.toUpperCase(), path, statuses });
    }
  }
  return found.sort((a, b) => a.id.localeCompare(b.id));
}

export function FaultForm({ api, onSubmit }) {
  const operations = useMemo(() => operationsOf(api), [api]);
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState('');
  const [status, setStatus] = useState(500);
  const [count, setCount] = useState('1');
  const [error, setError] = useState(undefined);
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = operations.filter((op) => {
    const text = `${op.id} ${op.method} ${op.path}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
  const operation = operations.find((op) => op.id === chosen);
  const statuses = FAULT_STATUSES.filter(([code]) => !operation || operation.statuses.has(code));
  const choose = (id) => {
    setChosen(id);
    const documented = operations.find((op) => op.id === id)?.statuses;
    if (documented && !documented.has(status)) setStatus(500);
  };
  const submit = async (event) => {
    event.preventDefault();
    if (!operation) return setError('Choose an operation first.');
    try {
      await onSubmit({ operation_id: operation.id, status: Number(status), count: Number(count) || 1 });
      setError(undefined);
    } catch (failure) {
      setError(failure.message);
    }
    poke();
  };
  return html`<form class="grid-form fault-form" aria-label="Arm a fault" onSubmit=${submit}>
    <label for="fault-search">Find an operation
      <input id="fault-search" type="search" value=${search} placeholder="id, method or path: accounts list"
        onInput=${(e) => setSearch(e.currentTarget.value)} />
      <small aria-live="polite">${shown.length} of ${operations.length} operations</small>
    </label>
    <label for="fault-operation" class="wide">Operation
      <select id="fault-operation" aria-label="Operation" size="8" required value=${chosen} onChange=${(e) => choose(e.currentTarget.value)}>
        ${shown.map((op) => html`<option key=${op.id} value=${op.id}>${op.id} · ${op.method} ${op.path}</option>`)}
      </select>
    </label>
    <label for="fault-status">Answer
      <select id="fault-status" aria-label="Answer" value=${status} onChange=${(e) => setStatus(Number(e.currentTarget.value))}>
        ${statuses.map(([code, label]) => html`<option key=${code} value=${code}>${label}</option>`)}
      </select>
      <small>${operation ? `The statuses ${operation.id} documents that a fault can give.` : 'Choose an operation.'}</small>
    </label>
    <label for="fault-count">Requests (count)
      <input id="fault-count" type="number" min="1" value=${count} onInput=${(e) => setCount(e.currentTarget.value)} />
    </label>
    <div class="form-actions"><button type="submit">Arm the fault</button></div>
    <${ErrorLine} error=${error} />
  </form>`;
}

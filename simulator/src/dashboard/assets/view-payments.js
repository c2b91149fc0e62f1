// Payments (Brazil): customers, payment authorizations, payment intents and charges, with their state
// and the cancel cutoff that applies (x-cancel-cutoff of the cancel operations in the API document).
import { useEffect, useState } from 'preact/hooks';
import { loadDocuments, read } from './api.js';
import { Action, Badge, ErrorLine, html, Table, usePoll, when } from './ui.js';

const LIST = { query: { page_size: 50 } };
/** PAY-AUTH-V2-REQUIRED: payment authorizations exist only in the V2 format. */
const V2 = { ...LIST, headers: { 'x-service-api-resource-version': 'Payments-BR.V2' } };
const DAY_MS = 86_400_000;

/** `x-cancel-cutoff` of each cancel operation, by operationId. */
function cutoffsOf(api) {
  const cutoffs = {};
  for (const item of Object.values(api.paths))
    for (const op of Object.values(item))
      if (op?.['x-cancel-cutoff']) cutoffs[op.operationId] = op['x-cancel-cutoff'];
  return cutoffs;
}

/** The cutoff instant of a payment date: `time` at `utc_offset` on the day `days_before` it. */
function cutoffAt(date, cutoff) {
  if (!date || !cutoff) return undefined;
  const day = new Date(Date.parse(`${date}T00:00:00Z`) - cutoff.days_before * DAY_MS)
    .toISOString()
    .slice(0, 10);
  return Date.parse(`${day}T${cutoff.time}${cutoff.utc_offset}`);
}

function Cutoff({ date, cutoff, now, rule }) {
  const at = cutoffAt(date, cutoff);
  if (at === undefined) return html`<span class="muted">—</span>`;
  const passed = now >= at;
  return html`<span class=${passed ? 'status-bad' : ''} title=${rule}>
    ${passed ? 'passed' : 'cancel until'} ${when(new Date(at).toISOString())}</span>`;
}

function customerColumns() {
  return [
    { label: 'Customer', get: (c) => c.id },
    { label: 'Name', get: (c) => c.name },
    { label: 'Type', get: (c) => c.customer_type },
    {
      label: 'Identifier',
      get: (c) => (typeof c.identifier === 'object' ? c.identifier?.number : c.identifier),
    },
    { label: 'Created', get: (c) => when(c.created_at) },
  ];
}

function authorizationColumns(cutoffs, now) {
  return [
    { label: 'Authorization', get: (a) => a.payment_authorization_id },
    { label: 'Status', get: (a) => html`<${Badge} value=${a.status} />` },
    {
      label: 'Schedule',
      get: (a) => `${a.schedule?.frequency ?? ''} ${a.schedule?.amount ?? ''} ${a.currency}`,
    },
    { label: 'Next charge', get: (a) => a.next_charge_date ?? '—' },
    {
      label: 'Cancel cutoff',
      get: (a) =>
        html`<${Cutoff} date=${a.next_charge_date} cutoff=${cutoffs.cancelPaymentAuthorization} now=${now} rule="PAY-AUTH-CANCEL-CUTOFF" />`,
    },
    {
      label: 'Payer',
      get: (a) =>
        a.status === 'AWAITING_AUTHORIZATION'
          ? html`<${Action} label="Confirm" action=${() => read('POST', `/_ofkit/payment-authorizations/${a.payment_authorization_id}/confirm/`)} />
              <${Action} label="Reject" action=${() => read('POST', `/_ofkit/payment-authorizations/${a.payment_authorization_id}/reject/`)} />`
          : '—',
    },
  ];
}

function intentColumns(cutoffs, now) {
  return [
    { label: 'Intent', get: (i) => i.id },
    { label: 'Status', get: (i) => html`<${Badge} value=${i.status} />` },
    { label: 'Amount', get: (i) => `${i.amount} ${i.currency}` },
    { label: 'Scheduled', get: (i) => i.scheduled_date ?? 'immediate' },
    {
      label: 'Cancel cutoff',
      get: (i) =>
        html`<${Cutoff} date=${i.scheduled_date} cutoff=${cutoffs.cancelPaymentIntent} now=${now} rule="PAY-INTENT-CANCEL-CUTOFF" />`,
    },
    {
      label: 'Payer',
      get: (i) =>
        i.status === 'PENDING'
          ? html`<${Action} label="Authorize" action=${() => read('POST', `/_ofkit/payment-intents/${i.id}/authorize/`)} />
              <${Action} label="Reject" action=${() => read('POST', `/_ofkit/payment-intents/${i.id}/reject/`)} />`
          : '—',
    },
  ];
}

function chargeColumns(cutoffs, now) {
  return [
    { label: 'Charge', get: (c) => c.charge_id },
    {
      label: 'Of',
      get: (c) =>
        c.payment_authorization
          ? `authorization ${c.payment_authorization.slice(0, 8)}…`
          : `intent ${c.payment_intent?.slice(0, 8)}…`,
    },
    { label: 'Status', get: (c) => html`<${Badge} value=${c.status} />` },
    { label: 'Amount', get: (c) => `${c.amount} ${c.currency}` },
    { label: 'Date', get: (c) => c.date },
    {
      label: 'Cancel cutoff',
      get: (c) =>
        c.payment_authorization
          ? html`<${Cutoff} date=${c.date} cutoff=${cutoffs.cancelPaymentAuthorizationCharge} now=${now} rule="PAY-AUTH-CHARGE-CANCEL-CUTOFF" />`
          : html`<${Cutoff} date=${c.date} cutoff=${cutoffs.cancelPaymentIntentCharge} now=${now} rule="PAY-INTENT-CANCEL-CUTOFF" />`,
    },
    { label: 'Failure', get: (c) => c.failure?.code ?? c.failure ?? '—' },
  ];
}

export function PaymentsView() {
  const [cutoffs, setCutoffs] = useState({});
  useEffect(() => {
    loadDocuments().then(({ api }) => setCutoffs(cutoffsOf(api)));
  }, []);
  const { data, error } = usePoll(
    async () => {
      const [customers, authorizations, intents, charges, clock] = await Promise.all([
        read('GET', '/payments/br/customers/', LIST),
        read('GET', '/payments/br/payment-authorizations/', V2),
        read('GET', '/payments/br/payment-intents/', LIST),
        read('GET', '/payments/br/charges/', LIST),
        read('GET', '/_ofkit/clock/'),
      ]);
      return { customers, authorizations, intents, charges, now: Date.parse(clock.now) };
    },
    [],
    2000,
  );
  return html`<div class="view">
    <h2>Payments</h2>
    <p class="hint">Cutoffs are the cancel operations' <code>x-cancel-cutoff</code> (GMT-3), against the tenant's clock.</p>
    <${ErrorLine} error=${error} />
    ${
      data &&
      html`<h3>Customers</h3>
      <${Table} caption="Customers" columns=${customerColumns()} rows=${data.customers.results} empty="No customer." />
      <h3>Payment authorizations</h3>
      <${Table} caption="Payment authorizations" columns=${authorizationColumns(cutoffs, data.now)} rows=${data.authorizations.results}
        rowKey=${(a) => a.payment_authorization_id} empty="No payment authorization." />
      <h3>Payment intents</h3>
      <${Table} caption="Payment intents" columns=${intentColumns(cutoffs, data.now)} rows=${data.intents.results} empty="No payment intent." />
      <h3>Charges</h3>
      <${Table} caption="Charges" columns=${chargeColumns(cutoffs, data.now)} rows=${data.charges.results}
        rowKey=${(c) => c.charge_id} empty="No charge." />`
    }
  </div>`;
}

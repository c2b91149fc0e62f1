// A careful client of the Open Finance API, run by `ofkit golive` in every situation (docs/golive.md).
// Node 20 and nothing else. The flow the provider's SDK documents: register a recurrent link (resuming
// MFA, asking again when the institution wants a second token), retrieve and list its accounts and a
// year of transactions (every page, through `next`), delete what it no longer needs (waiting out the
// deletion rate), refresh (waiting out the cooldown), and a webhook receiver that checks the bearer
// token, acknowledges at once, processes a repeated webhook_id once and reads what each event announces;
// a link whose credentials stop working, or that needs a new token, is mended in update mode (PUT) before
// it is used again. Late deliveries are waited for (their release on the API's clock), and a worker's
// weeks are lived through until golive says they are over (OFKIT_LIFE_ENDED_FILE). Every failed request
// is logged with its request_id; the key never leaves the Authorization header.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';

const {
  OFKIT_URL,
  OFKIT_KEY,
  OFKIT_SECRET,
  OFKIT_CONTROL_URL,
  OFKIT_JUDGE_TIMING,
  OFKIT_ENVIRONMENT,
  OFKIT_LIFE_ENDED_FILE,
} = process.env;
const AUTHORIZATION = `Basic ${Buffer.from(`${OFKIT_KEY}:${OFKIT_SECRET}`).toString('base64')}`;
/** The spec's backoff for 50x, 408 and Too Many Sessions: 3, 6, 12, 24, 48 s, five retries at most. */
const RETRY_WAITS = [3, 6, 12, 24, 48];
/** The MFA token the end-user types (the simulator's is 123456). */
const MFA_TOKEN = '123456';

// Retry waits are real, unless golive judges order only: then this run's timers are faked.
const sleep = (seconds) =>
  OFKIT_JUDGE_TIMING === 'order-only'
    ? Promise.resolve()
    : new Promise((wake) => setTimeout(wake, seconds * 1000));
const pause = (ms) => new Promise((wake) => setTimeout(wake, ms));

/** The control API of the simulator: configuring the receiver, and moving its clock (a test's "wait"). */
async function control(method, path, body) {
  const response = await fetch(`${OFKIT_CONTROL_URL}${path}`, {
    method,
    headers: { authorization: AUTHORIZATION, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`control ${method} ${path} answered ${response.status}`);
  const text = await response.text();
  return text === '' ? undefined : JSON.parse(text);
}
/** A cooldown or a rate window is the API's time: in a test, the simulator's clock moves instead of us waiting. */
const waitOnApiClock = (seconds) => control('POST', 'clock/advance/', { seconds });

const retryable = (status, error) => status >= 500 || status === 408 || error?.code === 'too_many_sessions';

/** One API call with the spec's retry policy; a failure is logged with its request_id. */
async function api(method, path, body, headers = {}) {
  for (let retry = 0; ; retry += 1) {
    const response = await fetch(new URL(path, OFKIT_URL), {
      method,
      headers: {
        authorization: AUTHORIZATION,
        ...(body && { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const data = text === '' ? undefined : JSON.parse(text);
    const error = response.status >= 400 ? data?.[0] : undefined;
    if (error)
      console.log(`${method} ${path} -> ${response.status} ${error.code} (request_id ${error.request_id})`);
    if (!retryable(response.status, error) || retry === RETRY_WAITS.length)
      return { status: response.status, data };
    await sleep(RETRY_WAITS[retry]);
  }
}

/** A registration or retrieval answered 428 resumed on its collection, again while the institution asks. */
async function withMfa(collection, answer) {
  let current = answer;
  while (current.status === 428) {
    const { session, link } = current.data[0];
    current = await api('PATCH', collection, { session, link, token: MFA_TOKEN });
  }
  return current;
}

/** Every record of a list, following `next` as given to the last page. */
async function listAll(path) {
  const records = [];
  let next = path;
  while (next) {
    const page = await api('GET', next);
    if (page.status !== 200) return records;
    records.push(...page.data.results);
    next = page.data.next;
  }
  return records;
}

/**
 * Update mode: the end-user's new credentials for a link gone invalid (with the token the end-user types
 * when the institution wants one), then its data retrieved again.
 */
async function mendLink(id, withToken = false) {
  const credentials = { password: 'new-secret', ...(withToken && { token: MFA_TOKEN }) };
  const updated = await withMfa('/api/links/', await api('PUT', `/api/links/${id}/`, credentials));
  if (updated.status !== 200) throw new Error(`updating the credentials answered ${updated.status}`);
  console.log("the link was mended with the end-user's new credentials");
  await retrieve('/api/accounts/', { link: id });
}

/** The webhook receiver: bearer checked, 2xx at once, a repeated webhook_id processed once. */
function startReceiver(bearer) {
  const processed = new Set();
  const work = new Set();
  let lastDelivery = Date.now();
  // Events of one refresh come in a burst, several announcing the same list: one read after them all
  // (half a second gathers a burst even on a loaded machine).
  const scheduled = new Map();
  const readOnce = (path) => {
    if (!scheduled.has(path))
      scheduled.set(
        path,
        pause(500).then(() => {
          scheduled.delete(path);
          return listAll(path);
        }),
      );
    return scheduled.get(path);
  };
  const followUp = async (event) => {
    if (event.webhook_type === 'LINK' && event.webhook_code === 'invalid_credentials')
      return mendLink(event.link_id);
    if (event.webhook_type === 'LINK' && event.webhook_code === 'token_required')
      return mendLink(event.link_id, true);
    const link = encodeURIComponent(event.link_id ?? '');
    if (event.webhook_type === 'ACCOUNTS') await readOnce(`/api/accounts/?link=${link}`);
    if (event.webhook_type === 'OWNERS') await readOnce(`/api/owners/?link=${link}`);
    if (event.webhook_type === 'TRANSACTIONS' && event.webhook_code === 'transactions_updated')
      await listAll(`/api/transactions/?id__in=${event.data.updated_transactions.join(',')}`);
    else if (event.webhook_type === 'TRANSACTIONS') {
      const records = await readOnce(`/api/transactions/?link=${link}`);
      console.log(`${records.length} transactions (${event.webhook_code})`);
    }
  };
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      lastDelivery = Date.now();
      if (request.headers.authorization !== `Bearer ${bearer}`) return response.writeHead(401).end();
      response.writeHead(200).end();
      const event = JSON.parse(text);
      if (event.webhook_id && processed.has(event.webhook_id)) return;
      processed.add(event.webhook_id);
      const done = followUp(event).finally(() => work.delete(done));
      work.add(done);
    });
  });
  return {
    listening: new Promise((ready) => server.listen(0, '127.0.0.1', () => ready(server.address().port))),
    /**
     * Waits until the deliveries have stopped and every follow-up read is done; deliveries the API holds
     * back (the event log's `held_until`) are waited for first, on the API's clock.
     */
    async quiet() {
      await heldDeliveriesReleased();
      while (work.size > 0 || Date.now() - lastDelivery < 500) await pause(100);
    },
    async close() {
      await this.quiet();
      await new Promise((closed) => server.close(closed));
    },
  };
}

/** The events whose delivery the API holds back: logged, their first delivery not made yet. */
async function heldBack() {
  const events = await control('GET', 'events/');
  return events.filter((e) => e.held_until && e.status === 'pending' && e.attempts.length === 0);
}

/**
 * A late delivery is still to come: in a test the API's clock moves to its release (its `held_until`)
 * instead of us waiting, until every held delivery has been made (a bounded number of rounds).
 */
async function heldDeliveriesReleased() {
  for (let round = 0; round < 50; round += 1) {
    const held = await heldBack();
    if (held.length === 0) return;
    const { now } = await control('GET', 'clock/');
    const release = Math.max(...held.map((e) => Date.parse(e.held_until)));
    if (release > Date.parse(now)) await waitOnApiClock(Math.ceil((release - Date.parse(now)) / 1000));
    else await pause(100);
  }
}

/** A worker lives on; under golive's recurrent life it ends once golive has created that file. */
async function lifeEnded() {
  while (OFKIT_LIFE_ENDED_FILE && !existsSync(OFKIT_LIFE_ENDED_FILE)) await pause(100);
}

/** A link registered for the end-user, or null when the institution refused the credentials. */
async function registerLink(username, accessMode) {
  const body = { institution: 'ofbank_br_retail', username, password: 'secret', access_mode: accessMode };
  const link = await withMfa('/api/links/', await api('POST', '/api/links/', body));
  if (link.status === 400 && link.data[0].code === 'invalid_credentials') {
    console.log('the institution refused the credentials: the end-user is asked for them again');
    return null;
  }
  if (link.status !== 201 && link.status !== 200) throw new Error(`registration answered ${link.status}`);
  return link.data.id;
}

async function retrieve(collection, body) {
  const answer = await withMfa(collection, await api('POST', collection, body));
  if (answer.status !== 201 && answer.status !== 200)
    throw new Error(`${collection} answered ${answer.status}`);
}

/** Deletes links, waiting for the window after a 429 (5 deletions a minute). */
async function deleteLinks(ids) {
  for (const id of ids) {
    let answer = await api('DELETE', `/api/links/${id}/`);
    if (answer.status === 429) {
      await waitOnApiClock(60);
      answer = await api('DELETE', `/api/links/${id}/`);
    }
    if (answer.status !== 204) throw new Error(`deleting a link answered ${answer.status}`);
  }
}

/** Refreshes the link twice (a user tapping twice): after a 409, the cooldown is waited out. */
async function refreshTwice(id) {
  for (let tap = 0; tap < 2; tap += 1) {
    let answer = await api('POST', `/api/links/${id}/refresh/`);
    if (answer.status === 409) {
      await waitOnApiClock(600);
      answer = await api('POST', `/api/links/${id}/refresh/`);
    }
    if (answer.status !== 202) throw new Error(`refresh answered ${answer.status}`);
  }
}

const V2 = { 'x-service-api-resource-version': 'Payments-BR.V2' };
const PAYMENT_AUTHORIZATIONS = '/payments/br/payment-authorizations/';

/** A monthly payment authorization, confirmed; a charge that failed at the payer's institution retried once. */
async function chargeWithRetry() {
  const customer = await api('POST', '/payments/br/customers/', {
    identifier: '52601815906',
    name: 'Maria Souza',
    customer_type: 'INDIVIDUAL',
  });
  const account = await api('POST', '/payments/br/bank-accounts/', {
    type: 'BUSINESS',
    institution: '86a1e016-7c1e-47b9-9f22-6f939c3770ba',
    agency: '0001',
    number: '123456-7',
    account_type: 'CHECKING',
    holder: { name: 'Padaria Pao Dourado Ltda', identifier: '62819482000163' },
  });
  const { now } = await control('GET', 'clock/');
  const start = new Date(Date.parse(now) + 2 * 86_400_000).toISOString().slice(0, 10);
  const created = await api(
    'POST',
    PAYMENT_AUTHORIZATIONS,
    {
      customer: customer.data.id,
      beneficiary: account.data.id,
      institution: '375eff08-33be-4d41-8d24-13ab2c7e0632',
      description: 'Clube do Pao',
      schedule: { frequency: 'MONTHLY', start_date: start, occurrences: 3, amount: '89.90' },
      callback_url: 'https://app.example.com/retorno',
    },
    V2,
  );
  if (created.status !== 201) throw new Error(`the payment authorization answered ${created.status}`);
  const id = created.data.payment_authorization_id;
  await control('POST', `payment-authorizations/${id}/confirm/`);
  // The first charge runs at 06:00 GMT-3 (09:00 UTC) of its date: the API's time, moved to just after.
  await waitOnApiClock((Date.parse(`${start}T09:30:00Z`) - Date.parse(now)) / 1000);
  const charges = await api('GET', `${PAYMENT_AUTHORIZATIONS}${id}/charges/`, undefined, V2);
  for (const charge of charges.data.results.filter((c) => c.status === 'FAILED')) {
    const retried = await api(
      'POST',
      `${PAYMENT_AUTHORIZATIONS}${id}/charges/${charge.charge_id}/retry/`,
      undefined,
      V2,
    );
    console.log(`a failed charge retried: ${retried.status}`);
  }
}

const bearer = randomBytes(16).toString('hex');
const receiver = startReceiver(bearer);
const port = await receiver.listening;
await control('PUT', 'webhooks/', { url: `http://127.0.0.1:${port}/webhooks`, bearer_token: bearer });
const link = await registerLink('76109277673', 'recurrent');
if (link !== null) {
  // The lists are read once, by the receiver, when the events announce them (read twice, a repeated
  // event would look processed twice).
  await retrieve('/api/accounts/', { link });
  await retrieve('/api/transactions/', { link, date_from: '2025-11-01', date_to: '2026-10-31' });
  const done = [];
  for (let user = 0; user < 6; user += 1) done.push(await registerLink(`7610927768${user}`, 'single'));
  // The events of the new links are read first: a deleted link's data is gone.
  await receiver.quiet();
  await deleteLinks(done.filter(Boolean));
  await refreshTwice(link);
  // A day on the API's clock: the link's daily refresh runs (and may find its credentials refused).
  await waitOnApiClock(86_400);
  await receiver.quiet();
  // The sandbox initiates no payment.
  if (OFKIT_ENVIRONMENT !== 'sandbox') await chargeWithRetry();
}
await lifeEnded();
await receiver.close();

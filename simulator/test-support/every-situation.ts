/**
 * One run that meets every situation the client rules are about, driven through a client under test:
 * faults (500, 408, Too Many Sessions), a 400, a refresh cooldown, the deletion rate limit, an MFA
 * pause, a paged list, webhook deliveries with their follow-up reads, a forged and a repeated delivery.
 * The application around the client is the same for every client; only the client differs.
 */
import { createOfkitClient } from '../../openapi/client/index.js';
import { BEARER, type JudgeBench, KEY, refusesWithoutBearer } from './judge-harness.js';

/** What the application asks of a client; each returns the final HTTP status it saw. */
export interface ClientDriver {
  /** GET /api/links/ with `query` (each step its own request, so one step's retries stay its own). */
  listLinks(query: Record<string, string>): Promise<number>;
  /** Reads every page of the institutions, two a page (the client's own way of paging). */
  listInstitutionsByTwo(): Promise<number>;
  registerLink(body: Record<string, string>): Promise<{ status: number; body: unknown }>;
  /** PATCH /api/links/ with the 428's session and link (LINK-MFA-428). */
  resumeLink(session: string, token: string, link: string): Promise<number>;
  listTransactionsWithoutLink(): Promise<number>;
  refreshLink(id: string): Promise<number>;
  deleteLink(id: string): Promise<number>;
  /** A follow-up read: GET `path` with `link`. */
  readForLink(path: string, link: string): Promise<number>;
}

const LINK_BODY = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };
const FOLLOW_UPS: Record<string, string> = {
  ACCOUNTS: '/api/accounts/',
  TRANSACTIONS: '/api/transactions/',
  OWNERS: '/api/owners/',
};

/** The application: it waits out a 409 and a 429 (on the tenant's clock) and resumes a 428 at once. */
export async function runEverySituation(bench: JudgeBench, client: ClientDriver): Promise<string[]> {
  const notes: string[] = [];
  const note = (what: string, status: unknown) => notes.push(`${what} -> ${status}`);
  const fault = (operation_id: string, status: number, count: number) =>
    bench.control('POST', '/_ofkit/faults/', { operation_id, status, count });
  bench.receiver.behaviour = refusesWithoutBearer;
  bench.receiver.seen.length = 0;
  await bench.control('PUT', '/_ofkit/webhooks/', { url: bench.receiverUrl, bearer_token: BEARER });

  await fault('listLinks', 500, 2);
  note('list links after two injected 500s', await client.listLinks({}));
  // A client that does not retry leaves faults behind: clear them so the next step starts clean.
  await bench.control('DELETE', '/_ofkit/faults/');
  await fault('listLinks', 408, 1);
  note('list links after an injected 408', await client.listLinks({ page_size: '10' }));
  await bench.control('DELETE', '/_ofkit/faults/');
  note('institutions, two a page', await client.listInstitutionsByTwo());
  await fault('registerLink', 400, 1);
  const first = await client.registerLink(LINK_BODY);
  note('register after an injected Too Many Sessions', first.status);
  await bench.control('DELETE', '/_ofkit/faults/');
  note('transactions without link', await client.listTransactionsWithoutLink());
  // Another end-user (another body): not a retry of the registration above, whatever its outcome.
  const refreshed = await client.registerLink({ ...LINK_BODY, username: '76109277675' });
  const link = (refreshed.body as { id?: string } | undefined)?.id;

  if (link) {
    note('refresh', await client.refreshLink(link));
    note('refresh again', await client.refreshLink(link));
    await bench.control('POST', '/_ofkit/clock/advance/', { seconds: 600 });
    note('refresh after the cooldown', await client.refreshLink(link));
  }

  const doomed: string[] = [];
  for (let i = 0; i < 7; i += 1) {
    const created = await client.registerLink(LINK_BODY);
    const id = (created.body as { id?: string } | undefined)?.id;
    if (id) doomed.push(id);
  }
  for (const id of doomed.slice(0, 6)) note('delete', await client.deleteLink(id));
  await bench.control('POST', '/_ofkit/clock/advance/', { seconds: 60 });
  if (doomed[6]) note('delete after the window', await client.deleteLink(doomed[6]));

  await bench.control('POST', '/_ofkit/scenarios/', { scenario: 'institution_requires_token', count: 1 });
  const paused = await client.registerLink({ ...LINK_BODY, username: '76109277674' });
  note('register with MFA', paused.status);
  const item = (paused.body as { session?: string; link?: string }[] | undefined)?.[0];
  if (item?.session && item.link) note('resume', await client.resumeLink(item.session, '123456', item.link));

  await bench.simulator.webhooks.idle();
  const reads = new Set<string>();
  for (const payload of bench.receiver.seen) {
    const path = FOLLOW_UPS[String(payload.webhook_type)];
    if (path && typeof payload.link_id === 'string') reads.add(`${path} ${payload.link_id}`);
  }
  for (const read of reads) {
    const [path, id] = read.split(' ') as [string, string];
    await client.readForLink(path, id);
  }
  note('follow-up reads', reads.size);

  note(
    'forged delivery',
    (await bench.control('POST', '/_ofkit/judge/probes/', { probe: 'forged_delivery' })).body.status,
  );
  note(
    'repeated delivery',
    (await bench.control('POST', '/_ofkit/judge/probes/', { probe: 'duplicate_delivery' })).body.status,
  );
  return notes;
}

/** The application written with the typed client (`ofkit/client`), retrying on the bench's clock. */
export function typedClientDriver(bench: JudgeBench): ClientDriver {
  const client = createOfkitClient({
    baseUrl: bench.base,
    secretId: KEY.secretId,
    secretPassword: KEY.secretPassword,
    sleep: bench.sleep,
  });
  // The typed client's paths are typed; the application's reads go through the same fetch wrapper.
  const get = (path: string, query: Record<string, string>) =>
    (client.GET as (p: string, o: unknown) => Promise<{ response: Response }>)(path, { params: { query } });
  return {
    listLinks: async (query) => (await get('/api/links/', query)).response.status,
    async listInstitutionsByTwo() {
      let page = await client.GET('/api/institutions/', { params: { query: { page_size: 2 } } });
      while (page.data?.next) {
        const next = new URL(page.data.next);
        page = (await get(next.pathname, Object.fromEntries(next.searchParams))) as typeof page;
      }
      return page.response.status;
    },
    async registerLink(body) {
      const answer = await client.POST('/api/links/', { body: body as never });
      return { status: answer.response.status, body: answer.data ?? answer.error };
    },
    resumeLink: async (session, token, link) =>
      (await client.PATCH('/api/links/', { body: { session, token, link } })).response.status,
    listTransactionsWithoutLink: async () => (await get('/api/transactions/', {})).response.status,
    refreshLink: async (id) =>
      (await client.POST('/api/links/{id}/refresh/', { params: { path: { id } } } as never)).response.status,
    deleteLink: async (id) =>
      (await client.DELETE('/api/links/{id}/', { params: { path: { id } } } as never)).response.status,
    readForLink: async (path, link) => (await get(path, { link })).response.status,
  };
}

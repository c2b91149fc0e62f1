/**
 * A small LinkData for the webhook tests, independent of the record generator: the same
 * contract (records stored under their collection path, `fetch` idempotent per link and resource,
 * `addNew` dated on the tenant's day), with just the fields the events read.
 */
import type { LinkData, RetrievalScope } from '../handlers/data-resources/link-data.js';
import type { StoredRecord } from '../store/store.js';
import type { TenantRuntime } from '../tenants/tenant-runtime.js';

const DAY_MS = 86_400_000;

/** How many records a historical load finds per resource. */
export const HISTORY_SIZES: Readonly<Record<string, number>> = {
  '/api/accounts/': 2,
  '/api/owners/': 1,
  '/api/transactions/': 12,
  '/api/invoices/': 10,
  '/api/tax-returns/': 5,
  '/api/tax-status/': 1,
  '/api/cl/invoices/': 6,
  '/api/cl/tax-status/': 1,
};

type Make = (tenant: TenantRuntime, day: string) => Record<string, unknown>;

const direction = (tenant: TenantRuntime) => (tenant.random.next() < 0.5 ? 'INFLOW' : 'OUTFLOW');
const invoice: Make = (tenant, day) => ({
  type: direction(tenant),
  invoice_date: day,
  status: 'ACTIVE',
  cancelled_at: null,
});

const MAKERS: Readonly<Record<string, Make>> = {
  '/api/accounts/': () => ({ name: 'Conta Corrente' }),
  '/api/owners/': () => ({ display_name: 'Maria Silva' }),
  '/api/transactions/': (tenant, day) => ({
    type: direction(tenant),
    value_date: day,
    description: 'PIX recebido',
  }),
  '/api/invoices/': invoice,
  '/api/tax-returns/': (_tenant, day) => ({ year: Number(day.slice(0, 4)) }),
  '/api/tax-status/': (_tenant, day) => ({ status: 'ACTIVE', status_change_date: day }),
  '/api/cl/invoices/': (tenant, day) => ({ type: direction(tenant), invoice_date: day }),
  '/api/cl/tax-status/': () => ({ name: 'Comercial Ltda' }),
};

function dayOf(instant: number): string {
  return new Date(instant).toISOString().slice(0, 10);
}

async function store(
  tenant: TenantRuntime,
  link: StoredRecord,
  path: string,
  days: string[],
): Promise<StoredRecord[]> {
  const make = MAKERS[path];
  if (!make) throw new Error(`fake LinkData: no records for ${path}`);
  const now = new Date(tenant.clock.now()).toISOString();
  const records = days.map((day) => ({
    id: tenant.ids.uuid(),
    link: link.id,
    collected_at: now,
    created_at: now,
    ...make(tenant, day),
  }));
  for (const record of records) await tenant.store.put(tenant.id, path, record);
  return records;
}

/** Days spread evenly over the scope (default: the last 365 days). */
function spread(tenant: TenantRuntime, count: number, scope: RetrievalScope | undefined): string[] {
  const to = scope?.to ? Date.parse(scope.to) : tenant.clock.now();
  const from = scope?.from ? Date.parse(scope.from) : to - 365 * DAY_MS;
  const step = count > 1 ? Math.floor((to - from) / DAY_MS / (count - 1)) : 0;
  return Array.from({ length: count }, (_, i) => dayOf(from + i * step * DAY_MS));
}

export function createFakeLinkData(): LinkData & { fetched: string[] } {
  const fetched: string[] = [];
  return {
    fetched,
    collections: Object.keys(MAKERS),
    async fetch(tenant, link, path, scope) {
      fetched.push(path);
      const existing = await tenant.store.list(tenant.id, path, { link: link.id });
      if (existing.length > 0) return existing;
      return store(tenant, link, path, spread(tenant, HISTORY_SIZES[path] ?? 1, scope));
    },
    addNew(tenant, link, path, count) {
      return store(tenant, link, path, Array(count).fill(dayOf(tenant.clock.now())));
    },
  };
}

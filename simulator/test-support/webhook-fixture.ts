import { bundledApiDocument } from '../../openapi/document/api-document.js';
import { LINKS } from '../src/core/collections.js';
import { JobKinds } from '../src/core/job-kinds.js';
import type { TenantRuntime } from '../src/core/tenant.js';
import { createTenantRegistry } from '../src/core/tenant-registry.js';
import { createLinkData, type LinkData } from '../src/data/create-link-data.js';
import { defineDailyRefresh } from '../src/links/events/daily-schedule.js';
import { type LinkTriggers, linkTriggers } from '../src/links/events/link-triggers.js';
import { institutionByName } from '../src/links/institutions/catalogue.js';
import { MemoryStore } from '../src/store/memory-store.js';
import type { StoredRecord } from '../src/store/store.js';
import { type EventFilter, type EventRecord, listEvents } from '../src/webhooks/event-log.js';
import { type WebhookConfig, writeWebhookConfig } from '../src/webhooks/webhook-config.js';
import { createWebhookHub, type WebhookHub } from '../src/webhooks/webhook-emitter.js';
import { FIXED_NOW } from './contract-checked-simulator.js';

export interface WebhookFixture {
  hub: WebhookHub;
  /** The job kinds the hub and the daily refresh defined (a test may run a job by hand). */
  jobs: JobKinds;
  tenant: TenantRuntime;
  /** Another tenant of the same simulator. */
  other: TenantRuntime;
  /** The real LinkData, recording the resources `fetch` was asked for, in order. */
  linkData: LinkData & { fetched: string[] };
  triggers: LinkTriggers;
  configure(config: Partial<WebhookConfig>, tenant?: TenantRuntime): Promise<WebhookConfig>;
  /** Stores a link as registerLink would (institution ofbank_br_retail, recurrent, valid by default). */
  link(fields?: Record<string, unknown>): Promise<StoredRecord>;
  /** The tenant's event log once every write and delivery in flight is done. */
  events(filter?: EventFilter): Promise<EventRecord[]>;
  /** Moves the tenant's clock forward and waits for what the due jobs started. */
  advance(milliseconds: number): Promise<void>;
  close(): Promise<void>;
}

/** The generator of the data resource handlers, with the resources fetched recorded for the tests. */
function recordingLinkData(): LinkData & { fetched: string[] } {
  const real = createLinkData(bundledApiDocument('api'));
  const fetched: string[] = [];
  return {
    collections: real.collections,
    fetched,
    fetch(tenant, link, path, scope) {
      fetched.push(path);
      return real.fetch(tenant, link, path, scope);
    },
    addNew: (tenant, link, path, count) => real.addNew(tenant, link, path, count),
  };
}

export function webhookFixture(options: { timeoutMs?: number } = {}): WebhookFixture {
  const jobs = new JobKinds();
  const hub = createWebhookHub({ realTime: () => FIXED_NOW, timeoutMs: options.timeoutMs ?? 2000, jobs });
  const tenants = createTenantRegistry({
    seed: 'webhook-tests',
    store: new MemoryStore(),
    environment: 'production',
    realTime: () => FIXED_NOW,
    emitterFor: hub.emitterFor,
    runJob: (tenant, job, keep) => jobs.run(tenant, job, keep),
  });
  const tenant = tenants('tenant-a');
  const linkData = recordingLinkData();
  defineDailyRefresh(jobs, linkData);
  const triggers = linkTriggers(linkData, jobs);
  return {
    hub,
    jobs,
    tenant,
    other: tenants('tenant-b'),
    linkData,
    triggers,
    configure: (config, target = tenant) =>
      writeWebhookConfig(target, { mode: 'record', url: null, ...config }),
    async link(fields = {}) {
      const institution = institutionByName(String(fields.institution ?? 'ofbank_br_retail'));
      const link: StoredRecord = {
        id: tenant.ids.uuid(),
        institution: institution?.name,
        access_mode: 'recurrent',
        status: 'valid',
        created_at: new Date(tenant.clock.now()).toISOString(),
        fetch_resources: institution?.resources,
        ...fields,
      };
      await tenant.store.put(LINKS, link);
      return link;
    },
    async events(filter) {
      await hub.idle();
      return listEvents(tenant, filter);
    },
    async advance(milliseconds) {
      await tenant.clock.advance(milliseconds);
      await hub.idle();
    },
    close: () => hub.close(),
  };
}

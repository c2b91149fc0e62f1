/**
 * The one machine behind every data resource: which institutions offer it, the parent records it reads,
 * and retrieval = generate (deterministic per link) + finish (TAX-RETENTIONS-500, attachments,
 * EXCHANGE-HISTORY) + store (by id: a second retrieval replaces the first's records).
 */
import type { JsonObject } from '../../../openapi/document/json.js';
import { ACCOUNTS } from '../core/collections.js';
import type { TenantRuntime } from '../core/tenant.js';
import { DAY_MS } from '../core/time.js';
import { institutionByName } from '../links/institutions/catalogue.js';
import { nowIso } from '../pipeline/records.js';
import { publicView } from '../store/record-views.js';
import type { StoredRecord } from '../store/store.js';
import { writeIds } from './account-ids.js';
import { attachment } from './attachments.js';
import { HISTORY_MEMBER, historyOf } from './exchange-history.js';
import { keepPeriodIds, missingMonths } from './period-identity.js';
import { type GenerationPlan, generateForPlan, generateNew } from './record-generation.js';
import type { RecordTemplate } from './records/record-templates.js';
import type { DataResource } from './resource-catalogue.js';
import { type RetrievalRequest, scopedRetrieval } from './retrieval-request.js';

export const todayOf = (tenant: TenantRuntime) => Math.floor(tenant.clock.now() / DAY_MS);

export class RetrievalMachine {
  constructor(
    readonly resources: ReadonlyMap<string, DataResource>,
    /** EXCHANGE-HISTORY: the history events' template (null when the document has no history path). */
    private readonly history: RecordTemplate | null,
  ) {}

  resource(path: string): DataResource {
    const resource = this.resources.get(path);
    if (resource === undefined) throw new Error(`No data resource at ${path}`);
    return resource;
  }

  /** Why the link's institution does not offer the resource (`x-applies-to`, a feature), or null. */
  refusal(link: StoredRecord, resource: DataResource): string | null {
    const institution = institutionByName(String(link.institution));
    if (institution === undefined) return `The link's institution ${String(link.institution)} is unknown.`;
    const where = `${institution.name} (${institution.type}, ${institution.country_codes.join('/')})`;
    const applies = resource.appliesTo;
    if (
      applies !== null &&
      (!applies.institution_types.includes(institution.type) ||
        !institution.country_codes.some((country) => applies.countries.includes(country)))
    ) {
      const wanted = `${applies.institution_types.join('/')} institutions in ${applies.countries.join('/')}`;
      return `${resource.path} is offered by ${wanted}; link ${link.id} is at ${where}.`;
    }
    const feature = resource.row.feature;
    if (feature !== undefined && !institution.features.includes(feature)) {
      return `${resource.path} needs an institution with the ${feature} feature; link ${link.id} is at ${where}.`;
    }
    return null;
  }

  /**
   * The parent records the resource reads: the institution's (re-read and, unless `save` is false,
   * stored, as the real API does when it retrieves transactions, choice) in the table's categories, or,
   * for a prerequisite (`x-prerequisite`), only what was retrieved before. `save_data: false` stores
   * nothing, parents included (the provider answers it 200).
   */
  async parents(
    tenant: TenantRuntime,
    link: StoredRecord,
    resource: DataResource,
    save = true,
  ): Promise<StoredRecord[]> {
    const parent = resource.parent;
    if (parent === null) return [];
    if (parent.storedOnly) return tenant.store.list(parent.path, { link: link.id });
    const source = this.resource(parent.path);
    const scoped = { ...scopedRetrieval(source, {}, todayOf(tenant)), save };
    const records = await this.retrieve(tenant, link, source, scoped);
    const categories = parent.categories;
    return categories === null ? records : records.filter((r) => categories.includes(String(r.category)));
  }

  /** DATA-RETRIEVE: the records of the request, finished and (unless `save_data: false`) stored. */
  async retrieve(
    tenant: TenantRuntime,
    link: StoredRecord,
    resource: DataResource,
    request: RetrievalRequest,
    knownParents?: StoredRecord[],
  ): Promise<StoredRecord[]> {
    // A resource that answers one record has it whatever the range (an income over no history).
    if (request.empty && !resource.answersOne) return [];
    const parents = resource.parent
      ? (knownParents ?? (await this.parents(tenant, link, resource, request.save)))
      : [];
    const parentIds = resource.parent ? chooseParents(resource, parents, request) : [null];
    if (parentIds.length === 0) return [];
    const plan = planOf(tenant, link, request, parentIds, parents);
    let records = generateForPlan(resource, plan);
    // TAX-RETENTIONS-500: the period is the requested range; the earliest records are kept (choice).
    const cap = tenant.policy.data.recordsPerPeriodCapped ? resource.maxRecordsPerPeriod : null;
    if (cap !== null) records = records.slice(0, cap);
    // A return retrieved again is the same return: it keeps its id (period-identity.ts).
    if (resource.row.onePerPeriod) await keepPeriodIds(tenant, resource.path, link.id, records);
    for (const field of request.attach)
      for (const record of records) record[field] = attachment(field, record);
    await this.nameAccounts(tenant, link, resource, records, request.save);
    this.addHistory(resource, records, plan);
    // DATA-RETRIEVE: what a retrieval answers is stored, unless `save_data` is false.
    const save = request.save && tenant.policy.data.retrievalsStore;
    return save ? store(tenant, resource.path, records) : (records as StoredRecord[]);
  }

  /** `namesAccounts`: the summarised accounts are the link's (read, and stored unless `save` is false). */
  private async nameAccounts(
    tenant: TenantRuntime,
    link: StoredRecord,
    resource: DataResource,
    records: JsonObject[],
    save: boolean,
  ): Promise<void> {
    const named = resource.row.namesAccounts;
    if (named === undefined || records.length === 0) return;
    const source = this.resource(ACCOUNTS);
    const accounts = await this.retrieve(tenant, link, source, {
      ...scopedRetrieval(source, {}, todayOf(tenant)),
      save,
    });
    const ids = accounts
      .filter((account) => named.categories?.includes(String(account.category)) ?? true)
      .map((account) => account.id);
    if (ids.length > 0) for (const record of records) writeIds(record, named.path.split('.'), ids);
  }

  /** `LinkData.addNew`: `count` new records dated today, over all the parents. */
  async addNew(tenant: TenantRuntime, link: StoredRecord, resource: DataResource, count: number) {
    if (resource.row.onePerPeriod) return this.addClosedPeriods(tenant, link, resource, count);
    const parents = resource.parent ? await this.parents(tenant, link, resource) : [];
    if (count <= 0 || (resource.parent !== null && parents.length === 0)) return [];
    const today = todayOf(tenant);
    const parentIds = resource.parent ? parents.map((p) => p.id) : [null];
    const plan = planOf(tenant, link, newRequest(today), parentIds, parents);
    // Seeded by the instant; a second batch at the same instant takes the next attempt (deterministic).
    let records: JsonObject[] = [];
    for (let attempt = 0; records.length === 0 || (await exists(tenant, resource, records)); attempt++) {
      records = generateNew(
        resource,
        plan,
        count,
        `${link.id}${resource.path}#new@${tenant.clock.now()}#${attempt}`,
      );
    }
    this.addHistory(resource, records, plan);
    return store(tenant, resource.path, records);
  }

  /** New records of a one-per-period resource: those of the latest closed months the link lacks. */
  private async addClosedPeriods(
    tenant: TenantRuntime,
    link: StoredRecord,
    resource: DataResource,
    count: number,
  ) {
    const kind = resource.row.onePerPeriod?.newKind ?? null;
    const today = todayOf(tenant);
    const months = await missingMonths(tenant, resource.path, link.id, { kind: String(kind), today, count });
    const records = months.flatMap((range) =>
      generateForPlan(
        resource,
        planOf(tenant, link, { ...newRequest(today), range, type: kind }, [null], []),
      ),
    );
    return store(tenant, resource.path, records);
  }

  private addHistory(resource: DataResource, records: JsonObject[], plan: GenerationPlan): void {
    const template = this.history;
    if (resource.operations.history === undefined || template === null) return;
    for (const record of records)
      record[HISTORY_MEMBER] = historyOf(template, record, plan.link, plan.collectedAt, plan.today);
  }
}

/** The asked parent, or every parent; a prerequisite's latest record when none is asked (choice). */
function chooseParents(resource: DataResource, parents: StoredRecord[], request: RetrievalRequest): string[] {
  const ids = parents.map((parent) => parent.id);
  if (request.parent !== null) return ids.filter((id) => id === request.parent);
  return resource.parent?.storedOnly ? ids.slice(-1) : ids;
}

function planOf(
  tenant: TenantRuntime,
  link: StoredRecord,
  request: RetrievalRequest,
  parents: (string | null)[],
  parentRecords: readonly StoredRecord[],
): GenerationPlan {
  const institution = institutionByName(String(link.institution));
  const country = institution?.country_codes[0];
  return {
    link: { id: link.id, institution: String(link.institution), ...(country && { country }) },
    collectedAt: nowIso(tenant),
    today: todayOf(tenant),
    range: request.range,
    type: request.type,
    parents,
    parentRecords: parentRecords.map((record) => publicView(record) as JsonObject),
  };
}

const newRequest = (today: number): RetrievalRequest => ({
  range: { from: today, to: today },
  empty: false,
  type: null,
  parent: null,
  attach: [],
  save: true,
});

async function exists(tenant: TenantRuntime, resource: DataResource, records: JsonObject[]) {
  return (await tenant.store.get(resource.path, String(records[0]?.id))) !== undefined;
}

/** Stores by id; a record stored before keeps its `created_at` (when it was first stored, choice). */
async function store(tenant: TenantRuntime, path: string, records: JsonObject[]): Promise<StoredRecord[]> {
  // All reads, then all writes, each issued at once: a networked store (Redis) pipelines them in one
  // round trip instead of two per record; the writes are issued in the records' order, which a store
  // keeps (its `put` order is the collection's order).
  const before = await Promise.all(records.map((record) => tenant.store.get(path, String(record.id))));
  for (const [index, record] of records.entries()) {
    const earlier = before[index];
    if (earlier !== undefined && 'created_at' in record) record.created_at = earlier.created_at as string;
  }
  await Promise.all(records.map((record) => tenant.store.put(path, record as StoredRecord)));
  return records as StoredRecord[];
}

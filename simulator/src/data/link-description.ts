/**
 * The records of a link described in a few lines (the control API's `createDescribedLink`): each
 * described record is drafted by the record generator for the link (deterministic: seeded by the link
 * id), then the members the description gives are laid over it. Nothing is stored here; the caller
 * checks the drafts against the API document and stores them.
 */
import { isObject, type JsonObject, type JsonValue } from '../../../openapi/document/json.js';
import type { ApiError } from '../core/api-error.js';
import { ACCOUNTS, TRANSACTIONS } from '../core/collections.js';
import type { TenantRuntime } from '../core/tenant.js';
import type { StoredRecord } from '../store/store.js';
import type { DataResource } from './resource-catalogue.js';
import type { RetrievalMachine } from './retrieval-machine.js';

/** An account's members, and its transactions' (each any members of its record). */
export interface AccountDescription {
  transactions?: JsonObject[];
  [member: string]: unknown;
}

export interface RecordsDescription {
  accounts?: AccountDescription[];
  /** Other resources by name: the collection path under `/api/` without the slash (`owners`, `br/balances`). */
  records?: Record<string, JsonObject[]>;
}

/** One drafted record, its collection, and where the description gave it (`accounts[0]`). */
export interface DraftedRecord {
  path: string;
  field: string;
  record: JsonObject;
}

export interface Drafts {
  records: DraftedRecord[];
  /** The collection paths the description fixes (a retrieval answers their records only). */
  described: string[];
}

/** A resource's name in a description: `/api/br/balances/` -> `br/balances`. */
export const nameOf = (path: string) => path.slice('/api/'.length, -1);

/** The generated record with the given members on top: objects merge, arrays and values replace. */
export function overlay(base: JsonValue | undefined, given: JsonValue): JsonValue {
  if (!isObject(base) || !isObject(given)) return given;
  const merged: JsonObject = { ...base };
  for (const [name, value] of Object.entries(given)) merged[name] = overlay(base[name], value);
  return merged;
}

/** The simulator's own members: a description that gives one is refused (ids are deterministic). */
function ownMembers(resource: DataResource): string[] {
  return ['id', 'link', ...(resource.parent ? [resource.parent.field] : [])];
}

class Drafter {
  readonly drafts: Drafts = { records: [], described: [] };
  readonly errors: ApiError[] = [];
  private readonly drafted = new Map<string, JsonObject[]>();

  constructor(
    private readonly machine: RetrievalMachine,
    private readonly tenant: TenantRuntime,
    private readonly link: StoredRecord,
  ) {}

  /** Drafts `given` records of `resource` over `parents`; `fields` names where each was given. */
  add(
    resource: DataResource,
    given: JsonObject[],
    parents: readonly JsonObject[],
    fields: string[],
    key = '',
  ) {
    for (const [index, members] of given.entries()) {
      for (const own of ownMembers(resource).filter((name) => name in members)) {
        const message = `\`${own}\` is the simulator's to set: leave it out of the description.`;
        this.errors.push({ code: 'invalid', field: `${fields[index]}.${own}`, message });
      }
    }
    const seed = `${this.link.id}${resource.path}#described${key}`;
    const drafts = this.machine.draft(this.tenant, this.link, resource, given.length, parents, seed);
    const records = drafts.map((draft, index) => ({
      ...(overlay(draft, given[index] ?? {}) as JsonObject),
      link: this.link.id,
    }));
    for (const [index, record] of records.entries())
      this.drafts.records.push({ path: resource.path, field: fields[index]!, record });
    this.drafted.set(resource.path, [...(this.drafted.get(resource.path) ?? []), ...records]);
    if (!this.drafts.described.includes(resource.path)) this.drafts.described.push(resource.path);
    return records;
  }

  /** Why the link's institution does not offer `resource`, as an error at `field`; or undefined. */
  refused(resource: DataResource, field: string): boolean {
    const why = this.machine.refusal(this.link, resource);
    if (why !== null) this.errors.push({ code: 'invalid', field, message: why });
    return why !== null;
  }

  /** A resource's parents: the described ones, else the institution's (generated, not stored). */
  async parentsOf(resource: DataResource): Promise<JsonObject[]> {
    const parent = resource.parent;
    if (parent === null) return [];
    const described = this.drafted.get(parent.path);
    if (described === undefined) {
      const generated = await this.machine.parents(this.tenant, this.link, resource, false);
      return generated as unknown as JsonObject[];
    }
    const categories = parent.categories;
    return categories === null ? described : described.filter((r) => categories.includes(String(r.category)));
  }
}

async function draftAccounts(drafter: Drafter, machine: RetrievalMachine, accounts: AccountDescription[]) {
  const resource = machine.resource(ACCOUNTS);
  if (drafter.refused(resource, 'accounts')) return;
  const members = accounts.map(({ transactions: _transactions, ...rest }) => rest as JsonObject);
  const drafted = drafter.add(
    resource,
    members,
    [],
    accounts.map((_, index) => `accounts[${index}]`),
  );
  if (!accounts.some((account) => account.transactions !== undefined)) return;
  const transactions = machine.resource(TRANSACTIONS);
  if (drafter.refused(transactions, 'accounts[0].transactions')) return;
  drafter.drafts.described.push(TRANSACTIONS);
  for (const [index, account] of accounts.entries()) {
    const given = account.transactions ?? [];
    const fields = given.map((_, item) => `accounts[${index}].transactions[${item}]`);
    drafter.add(transactions, given, [drafted[index]!], fields, `#${index}`);
  }
}

/** The resource a `records` name gives, or an error: an unknown name, or one `accounts` describes. */
function recordsResource(machine: RetrievalMachine, name: string, errors: ApiError[]) {
  const path = `/api/${name}/`;
  const field = `records.${name}`;
  if (path === ACCOUNTS || path === TRANSACTIONS) {
    errors.push({ code: 'invalid', field, message: `Describe ${name} under \`accounts\`.` });
    return undefined;
  }
  const resource = machine.resources.get(path);
  if (resource === undefined) {
    const known = [...machine.resources.keys()].filter((p) => p !== ACCOUNTS && p !== TRANSACTIONS);
    const message = `No data resource ${name}; one of: ${known.map(nameOf).join(', ')}.`;
    errors.push({ code: 'invalid', field, message });
  }
  return resource;
}

async function draftRecords(
  drafter: Drafter,
  machine: RetrievalMachine,
  records: Record<string, JsonObject[]>,
) {
  const chosen = Object.entries(records).flatMap(([name, given]) => {
    const resource = recordsResource(machine, name, drafter.errors);
    return resource && !drafter.refused(resource, `records.${name}`) ? [{ name, given, resource }] : [];
  });
  // Parents first: a resource read from another (investment transactions from investments) after it.
  chosen.sort((a, b) => Number(a.resource.parent !== null) - Number(b.resource.parent !== null));
  for (const { name, given, resource } of chosen) {
    const parents = await drafter.parentsOf(resource);
    if (resource.parent !== null && parents.length === 0 && given.length > 0) {
      const kinds = resource.parent.categories
        ? ` of category ${resource.parent.categories.join(' or ')}`
        : '';
      const message = `${name} belong to ${nameOf(resource.parent.path)}${kinds}, and the link has none: describe one.`;
      drafter.errors.push({ code: 'invalid', field: `records.${name}`, message });
      continue;
    }
    drafter.add(
      resource,
      given,
      parents,
      given.map((_, index) => `records.${name}[${index}]`),
    );
  }
}

/** The drafts of every described record of `link` (not stored), or the description's problems. */
export async function draftDescribedRecords(
  machine: RetrievalMachine,
  tenant: TenantRuntime,
  link: StoredRecord,
  description: RecordsDescription,
): Promise<{ drafts: Drafts; errors: ApiError[] }> {
  const drafter = new Drafter(machine, tenant, link);
  if (description.accounts !== undefined) await draftAccounts(drafter, machine, description.accounts);
  if (description.records !== undefined) await draftRecords(drafter, machine, description.records);
  return { drafts: drafter.drafts, errors: drafter.errors };
}

/**
 * A link created from a description (the control API's `createDescribedLink`): its described resources
 * are the institution's data for that link. A retrieval of one (DATA-RETRIEVE) answers the stored
 * records the request's scope selects, never generated ones; the link names those resources in a
 * private member.
 */
import type { TenantRuntime } from '../core/tenant.js';
import type { StoredRecord } from '../store/store.js';
import { formatDay } from './records/calendar.js';
import type { DataResource } from './resource-catalogue.js';
import type { RetrievalRequest } from './retrieval-request.js';

/** The link's private member listing the collection paths its description fixed. */
export const DESCRIBED_MEMBER = '_described';

/** True when the link's description fixed the resource at `path`. */
export function isDescribed(link: StoredRecord, path: string): boolean {
  const described = link[DESCRIBED_MEMBER];
  return Array.isArray(described) && described.includes(path);
}

/** The id a record's parent member names (a transaction's `account` is the whole account record). */
function parentId(record: StoredRecord, field: string): unknown {
  const value = record[field];
  return typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : value;
}

/** Whether the record's main date falls inside the request's range (resources dated by day only). */
function inRange(resource: DataResource, record: StoredRecord, request: RetrievalRequest): boolean {
  const main = resource.template.mainDate;
  const range = request.range;
  if (range === null || main === null || main === 'year' || resource.row.bucket === 'once') return true;
  const day = String(record[main] ?? '').slice(0, 10);
  return day >= formatDay(range.from) && day <= formatDay(range.to);
}

/** The described records a retrieval of the link asks for: its parent, its `type`, its dates. */
export async function describedRecords(
  tenant: TenantRuntime,
  link: StoredRecord,
  resource: DataResource,
  request: RetrievalRequest,
): Promise<StoredRecord[]> {
  const stored = await tenant.store.list(resource.path, { link: link.id });
  const parent = resource.parent;
  const typeField = resource.types?.field;
  return stored.filter(
    (record) =>
      (request.parent === null || parent === null || parentId(record, parent.field) === request.parent) &&
      (request.type === null || typeField === undefined || record[typeField] === request.type) &&
      inRange(resource, record, request),
  );
}

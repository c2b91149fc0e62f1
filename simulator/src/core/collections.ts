/**
 * The collections of the API the simulator keeps records in, named once: a collection is its list
 * path, so a stored record's collection is where the API lists it.
 */
import type { ApiDocument } from '../../../openapi/document/api-document.js';
import { API_ROOT, CONSENTS, INSTITUTIONS, LINKS, WIDGET_TOKEN } from '../../../openapi/http/api-paths.js';

export {
  ACCOUNTS,
  API_ROOT,
  CONSENTS,
  INSTITUTIONS,
  INVOICES,
  LINKS,
  OWNERS,
  TAX_RETURNS,
  TRANSACTIONS,
  WIDGET_TOKEN,
} from '../../../openapi/http/api-paths.js';

/** `/api/` paths whose records are not a link's data: the root, links, institutions, consents, the widget token. */
const NOT_DATA: ReadonlySet<string> = new Set([API_ROOT, LINKS, INSTITUTIONS, CONSENTS, WIDGET_TOKEN]);

const isCollectionPath = (path: string) =>
  path.startsWith('/api/') && path.endsWith('/') && !path.includes('{');

/** A data resource's collection: an `/api/` list of a link's records retrieved from its institution. */
export const isDataCollection = (path: string): boolean => isCollectionPath(path) && !NOT_DATA.has(path);

/**
 * Every collection that holds records of a link, read from the document: the data resources and the
 * link's consents. They go with a deleted link (LINK-DELETE-SYNC).
 */
export function linkedCollections(api: ApiDocument): string[] {
  return api.paths.filter((path) => isDataCollection(path) || path === CONSENTS);
}

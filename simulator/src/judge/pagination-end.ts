/**
 * Whether the client read some list to its end: a list followed through `next` until a page whose
 * `next` is null (PAGE-DEFAULT). Not a rule (a client that never meets a long list breaks nothing), but
 * what a situation of many pages requires before its checklist item can be met: a client that reads
 * the first page and stops has not met it, whatever CLIENT-PAGINATION-NEXT says of the pages it read.
 */
import type { ObservedRequest } from './request-log.js';

/** What a situation requires of the client, and whether its traffic shows it. */
export interface Requirement {
  met: boolean;
  summary: string;
  evidence: string[];
}

const line = (r: ObservedRequest) => `${r.entry.curl}   # ${r.entry.at} -> ${r.entry.status}`;

/** A URL's path and its parameters in a fixed order, as CLIENT-PAGINATION-NEXT compares them. */
function normalised(path: string, query: string): string {
  const params = [...new URLSearchParams(query).entries()].map(([k, v]) => `${k}=${v}`).sort();
  return `${path}?${params.join('&')}`;
}

/** A list followed from a page with `next` to the page whose `next` is null, through the `next` URLs. */
export function listFollowedToTheEnd(requests: readonly ObservedRequest[]): Requirement {
  /** Each `next` URL given, with the first page of the list it continues. */
  const given = new Map<string, { first: ObservedRequest; pages: number }>();
  let longLists = 0;
  for (const request of requests) {
    const page = request.page;
    if (request.entry.method !== 'GET' || page === undefined) continue;
    const chain = given.get(normalised(request.entry.path, request.entry.query));
    if (chain && page.next === null)
      return {
        met: true,
        summary: `A list of ${chain.pages + 1} pages was read to its end through \`next\`.`,
        evidence: [
          line(chain.first),
          ...(chain.pages > 1 ? [`# ... ${chain.pages - 1} more page(s) through \`next\``] : []),
          line(request),
        ],
      };
    if (page.next === null) continue;
    if (!chain) longLists += 1;
    const next = new URL(page.next);
    given.set(normalised(next.pathname, next.search.slice(1)), {
      first: chain?.first ?? request,
      pages: (chain?.pages ?? 0) + 1,
    });
  }
  const summary =
    longLists === 0
      ? 'No list longer than a page was read.'
      : `${longLists} list(s) had a next page; none was followed through \`next\` to the page whose \`next\` is null.`;
  return { met: false, summary, evidence: [] };
}

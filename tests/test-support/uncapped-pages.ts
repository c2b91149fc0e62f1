/**
 * PAGE-MAX broken the way a server forgets its cap, in front of a capped upstream: a `page_size` above
 * 1000 served as asked, the page stitched from the upstream's pages of 1000 (`page_size=1500` gives
 * 1500 records), its `next` and `previous` naming the upstream (the proxy rewrites them).
 */
import { request } from 'undici';

const CAP = 1000;

/** The page a `page_size` above the cap asks for, stitched from the upstream's capped pages; else undefined. */
export async function uncappedPage(
  upstream: string,
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string } | undefined> {
  const asked = new URL(url, upstream);
  const size = Number(asked.searchParams.get('page_size'));
  const page = Number(asked.searchParams.get('page') ?? '1');
  if (!Number.isInteger(size) || size <= CAP || !Number.isInteger(page) || page < 1) return undefined;
  const start = (page - 1) * size;
  const results: unknown[] = [];
  let count = 0;
  for (let upstreamPage = Math.floor(start / CAP) + 1; results.length < size; upstreamPage += 1) {
    const query = new URLSearchParams(asked.searchParams);
    query.set('page', String(upstreamPage));
    query.set('page_size', String(CAP));
    const answer = await request(`${upstream}${asked.pathname}?${query}`, { headers });
    const body = (await answer.body.json()) as { count: number; results: unknown[] };
    if (answer.statusCode !== 200) return undefined;
    count = body.count;
    const offset = upstreamPage === Math.floor(start / CAP) + 1 ? start % CAP : 0;
    results.push(...body.results.slice(offset));
    if ((upstreamPage - 1) * CAP + body.results.length >= count) break;
  }
  const link = (to: number) => {
    const query = new URLSearchParams(asked.searchParams);
    query.set('page', String(to));
    return `${upstream}${asked.pathname}?${query}`;
  };
  const last = Math.max(1, Math.ceil(count / size));
  const next = page < last ? link(page + 1) : null;
  const previous = page > 1 ? link(Math.min(page - 1, last)) : null;
  return { status: 200, text: JSON.stringify({ count, next, previous, results: results.slice(0, size) }) };
}

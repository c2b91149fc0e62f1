/** PAGE-DEFAULT (choice): `next` and `previous` are absolute URLs carrying every filter and `page_size`. */
import { fail } from '../rule.js';

/** Checks one page link against the query of the request it answers. */
export function checkPageLink(
  name: 'next' | 'previous',
  link: string | null,
  sent: Record<string, string>,
  what = '',
): void {
  if (link === null) return;
  const where = what ? `${what}: ` : '';
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    fail(`${where}\`${name}\` is not an absolute URL: ${link}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    fail(`${where}\`${name}\` is not an http(s) URL: ${link}`);
  for (const [param, value] of Object.entries(sent)) {
    if (param === 'page') continue;
    const carried = url.searchParams.get(param);
    if (carried !== value) {
      fail(
        `${where}\`${name}\` does not carry ${param}=${value} of the request (it has ${param}=${carried ?? '(absent)'}): ${link}`,
      );
    }
  }
}

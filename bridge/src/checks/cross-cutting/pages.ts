/**
 * PAGE-DEFAULT, PAGE-MAX and PAGE-NAV on every page a list answers: the page holds as many records as
 * its number, size and `count` say (PAGE-NAV), never more than the size asked (default 100) or 1000
 * (PAGE-MAX), and `next` / `previous` are there exactly when a neighbour page is, carrying every
 * parameter of the request with the page number moved by one (PAGE-DEFAULT).
 */
import { type ExchangeView, isSuccess } from '../exchange-view.js';
import type { Finding } from '../finding.js';
import { ruleFinding, type SessionCheck } from '../session-check.js';

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

interface Page {
  count: number;
  next: string | null;
  previous: string | null;
  results: unknown[];
}

function pageOf(view: ExchangeView): Page | undefined {
  const body = view.responseJson as Partial<Page> | undefined;
  if (view.method !== 'GET' || !isSuccess(view) || typeof body !== 'object' || body === null)
    return undefined;
  if (typeof body.count !== 'number' || !Array.isArray(body.results)) return undefined;
  return {
    count: body.count,
    next: body.next ?? null,
    previous: body.previous ?? null,
    results: body.results,
  };
}

const positive = (text: string | null, fallback: number) =>
  text === null ? fallback : /^\d+$/.test(text) && Number(text) >= 1 ? Number(text) : undefined;

/** The problems of a neighbour link: its presence, and its parameters against the request's. */
function linkProblems(
  view: ExchangeView,
  link: string | null,
  wanted: number | null,
  what: string,
): string[] {
  if (wanted === null) return link === null ? [] : [`\`${what}\` is ${link}, but there is no ${what} page`];
  if (link === null) return [`\`${what}\` is null, but page ${wanted} exists`];
  if (!URL.canParse(link)) return [`\`${what}\` is not an absolute URL: ${link}`];
  const target = new URL(link).searchParams;
  const problems: string[] = [];
  for (const [name, value] of view.query) {
    if (name !== 'page' && target.get(name) !== value)
      problems.push(`\`${what}\` drops or changes \`${name}=${value}\``);
  }
  const page = positive(target.get('page'), 1);
  if (page !== wanted) problems.push(`\`${what}\` points at page ${target.get('page') ?? 1}, not ${wanted}`);
  return problems;
}

export function createPagesCheck(): SessionCheck {
  return {
    observe(view) {
      if (view.control || !view.operation) return [];
      const page = pageOf(view);
      const number = positive(view.query.get('page'), 1);
      const asked = positive(view.query.get('page_size'), DEFAULT_PAGE_SIZE);
      if (page === undefined || number === undefined || asked === undefined) return [];
      const size = Math.min(asked, MAX_PAGE_SIZE);
      const findings: Finding[] = [];
      const held = page.results.length;
      if (held > size)
        findings.push(
          ruleFinding(view, 'PAGE-MAX', `the page holds ${held} records, more than its size ${size}`),
        );
      const expected = Math.max(0, Math.min(size, page.count - (number - 1) * size));
      if (held !== expected && held <= size)
        findings.push(
          ruleFinding(
            view,
            'PAGE-NAV',
            `page ${number} of size ${size} holds ${held} records; with count ${page.count} it holds ${expected}`,
          ),
        );
      const nextPage = number * size < page.count ? number + 1 : null;
      const previousPage = number > 1 ? number - 1 : null;
      const problems = [
        ...linkProblems(view, page.next, nextPage, 'next'),
        ...linkProblems(view, page.previous, previousPage, 'previous'),
      ];
      if (problems.length > 0)
        findings.push(ruleFinding(view, 'PAGE-DEFAULT', problems.slice(0, 3).join('; ')));
      return findings;
    },
  };
}

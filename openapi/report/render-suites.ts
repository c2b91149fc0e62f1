/**
 * A report's cases in the form asked for: JUnit XML or Markdown, from the same suites, so every command
 * with a JUnit report has its Markdown report too (`--report md:PATH`).
 */
import { type JUnitSuite, toJUnitXml } from './to-junit-xml.js';
import { toMarkdown } from './to-markdown.js';

/** The forms built from a report's suites (its JSON form is the command's own). */
export type SuitesForm = 'junit' | 'md';

export function renderSuites(
  form: SuitesForm,
  title: string,
  suites: readonly JUnitSuite[],
  seconds?: number,
): string {
  return form === 'md' ? toMarkdown(title, suites) : toJUnitXml(title, suites, seconds);
}

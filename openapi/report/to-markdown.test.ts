/** The Markdown form of a report: the JUnit form's suites and cases, as tables a person reads. */
import { describe, expect, it } from 'vitest';
import { toMarkdown } from './to-markdown.js';

describe('toMarkdown', () => {
  it('writes the totals of the counted suites and one table per suite, each case with its result', () => {
    const text = toMarkdown('ofkit check', [
      {
        name: 'coverage',
        cases: [{ name: 'operations', classname: 'c' }],
        uncounted: true,
        properties: [['operations', 61]],
      },
      {
        name: 'rules',
        cases: [
          { name: 'PAGE-NAV', classname: 'r' },
          { name: 'AUTH-BASIC', classname: 'r', failure: { message: 'a 200 | without\nkeys', details: '' } },
          { name: 'PAY-SANDBOX', classname: 'r', skipped: 'production target' },
        ],
      },
    ]);
    expect(text).toBe(
      [
        '# ofkit check',
        '',
        '3 cases: 1 passed, 1 failed, 1 skipped',
        '',
        '## coverage',
        '',
        'operations: 61',
        '',
        '| case | result | why |',
        '|---|---|---|',
        '| operations | passed |  |',
        '',
        '## rules',
        '',
        '| case | result | why |',
        '|---|---|---|',
        '| PAGE-NAV | passed |  |',
        '| AUTH-BASIC | FAILED | a 200 \\| without keys |',
        '| PAY-SANDBOX | skipped | production target |',
        '',
      ].join('\n'),
    );
  });
});

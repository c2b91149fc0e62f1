/**
 * The one JUnit writer: well-formed XML 1.0 whatever the text (escaping and dropped control characters),
 * counts per suite and at the root, and the parts CI servers read (failure type, skipped, system-out,
 * properties).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { escapeXml, toJUnitXml } from './to-junit-xml.js';

const parse = (xml: string) =>
  new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false }).parse(xml);

describe('escapeXml', () => {
  it('escapes the five XML characters and drops what XML 1.0 cannot hold', () => {
    expect(escapeXml(`a & b < c > d "e" 'f'`)).toBe('a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;');
    expect(escapeXml('\u001b[31mred\u001b[0m\u0000\ttab\nline\r\uFFFE\uD800')).toBe(
      '[31mred[0m\ttab\nline\r',
    );
    expect(escapeXml('ação 😀')).toBe('ação 😀');
  });
});

describe('toJUnitXml', () => {
  const nasty = `<tag attr="x" other='y'> & \u001b[1mbold\u0007`;
  const xml = toJUnitXml(
    `title ${nasty}`,
    [
      {
        name: 'coverage',
        uncounted: true,
        properties: [['coverage.percent', 50]],
        cases: [{ name: 'op', classname: 'c', skipped: 'never shown' }],
      },
      {
        name: `suite ${nasty}`,
        seconds: 1.5,
        cases: [
          { name: 'ok', classname: 'c', seconds: 0.25 },
          {
            name: 'bad',
            classname: 'c',
            failure: { message: nasty, type: 'PAGE-MAX', details: `line\n${nasty}` },
          },
          { name: 'skip', classname: 'c', skipped: nasty, systemOut: nasty },
        ],
      },
    ],
    2,
  );

  it('is well-formed and keeps the text (less the control characters)', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    const root = parse(xml).testsuites;
    const clean = `<tag attr="x" other='y'> & [1mbold`;
    expect(root.name).toBe(`title ${clean}`);
    const [, suite] = root.testsuite;
    expect(suite.name).toBe(`suite ${clean}`);
    expect(suite.testcase[1].failure).toMatchObject({ message: clean, type: 'PAGE-MAX' });
    expect(suite.testcase[1].failure['#text']).toBe(`line\n${clean}`);
    expect(suite.testcase[2].skipped.message).toBe(clean);
    expect(suite.testcase[2]['system-out']).toBe(clean);
  });

  it('counts per suite and at the root, leaving an uncounted suite out of the root', () => {
    const root = parse(xml).testsuites;
    expect(root).toMatchObject({ tests: '3', failures: '1', errors: '0', skipped: '1', time: '2.000' });
    const [coverage, suite] = root.testsuite;
    expect(coverage).toMatchObject({ tests: '1', skipped: '1' });
    expect(coverage.properties.property).toEqual({ name: 'coverage.percent', value: '50' });
    expect(suite).toMatchObject({ tests: '3', failures: '1', skipped: '1', time: '1.500' });
    expect(suite.testcase[0]).toMatchObject({ name: 'ok', time: '0.250' });
  });
});

/**
 * The dashboard's Markdown (the documents' descriptions, the simulator's messages) links only to web
 * and relative addresses: a message holding `[label](//attacker.example/path)` or `javascript:` shows
 * its label as text, never a link to another site.
 */
import { describe, expect, it } from 'vitest';
import { inline } from './assets/markdown.js';

interface Node {
  type?: string;
  props?: { href?: string };
}

const links = (text: string) =>
  (inline(text) as Node[])
    .filter((part) => typeof part === 'object' && part.type === 'a')
    .map((a) => a.props?.href);

describe('dashboard Markdown links', () => {
  it('links web, fragment and same-site addresses', () => {
    expect(links('[a](https://example.com/x) [b](#/links) [c](/_ofkit/ui/) [d](./x)')).toEqual([
      'https://example.com/x',
      '#/links',
      '/_ofkit/ui/',
      './x',
    ]);
  });

  it('never links a protocol-relative address nor a script', () => {
    for (const href of ['//attacker.example/path', '/\\attacker.example/path', 'javascript:alert(1)'])
      expect(links(`[read me](${href})`), href).toEqual([]);
  });
});

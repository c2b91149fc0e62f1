// The Markdown the documents and the simulator's messages use, rendered as elements: `code`, **strong**,
// *emphasis*, [links](url) and `- ` lists. Never through innerHTML: a message is text, whatever it holds.
import { html } from './ui.js';

const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

/**
 * Only web and relative addresses become links: never `javascript:`, and never `//host/path` nor
 * `/\\host/path`, which a browser reads as another site's address (protocol-relative).
 */
const safeHref = (href) => (/^(https?:\/\/|#|\/(?![/\\])|\.\.?\/)/.test(href) ? href : undefined);

/** One line of inline Markdown as text and elements. */
export function inline(text) {
  const parts = [];
  let last = 0;
  for (const match of String(text ?? '').matchAll(INLINE)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const [, code, strong, em, label, href] = match;
    if (code !== undefined) parts.push(html`<code>${code}</code>`);
    else if (strong !== undefined) parts.push(html`<strong>${strong}</strong>`);
    else if (em !== undefined) parts.push(html`<em>${em}</em>`);
    else parts.push(safeHref(href) ? html`<a href=${safeHref(href)}>${inline(label)}</a>` : label);
    last = match.index + match[0].length;
  }
  if (last < String(text ?? '').length) parts.push(String(text).slice(last));
  return parts;
}

/** Inline Markdown, and consecutive `- ` lines as a list (a schema description's options). */
export function Markdown({ text }) {
  const lines = String(text ?? '')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const blocks = [];
  for (const line of lines) {
    const item = /^\s*- (.*)$/.exec(line);
    const previous = blocks[blocks.length - 1];
    if (item && Array.isArray(previous)) previous.push(item[1]);
    else if (item) blocks.push([item[1]]);
    else if (typeof previous === 'string') blocks[blocks.length - 1] = `${previous} ${line.trim()}`;
    else blocks.push(line.trim());
  }
  return blocks.map((block) =>
    Array.isArray(block)
      ? html`<ul class="md-list">${block.map((item) => html`<li>${inline(item)}</li>`)}</ul>`
      : html`<span class="md">${inline(block)}</span>`,
  );
}

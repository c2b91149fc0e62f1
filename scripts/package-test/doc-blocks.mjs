/**
 * The code blocks of the documentation, read as the doc test runs them. A fenced shell block (`sh`,
 * `bash`) runs unless its first line says why not, visibly: `# not run: <reason>`. A block of any
 * language whose first line is a comment naming a file (`// accounts.test.ts`) is that file. Every
 * fence names its language; indented code blocks are refused (they would hide commands from the test).
 */

export const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell']);
const NOT_RUN = /^#\s*not run:\s*(\S.*)$/;
const FILE_NAME = /^(?:\/\/|#)\s*([\w.-]+\.(?:ts|mts|cts|js|mjs|cjs|ya?ml))(?=[\s:]|$)/;

/**
 * The fenced blocks of `markdown`: `{ language, text, line, kind, reason?, file? }`, where `kind` is
 * `run`, `not-run`, `file` or `other`; and `problems`, one line each (a fence without a language, an
 * indented code block, a fence never closed).
 */
export function docBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  const problems = [];
  let previousProse = '';
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    const fence = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    if (fence) {
      const [, indent, marker, language] = fence;
      const start = i;
      const body = [];
      for (i += 1; i < lines.length; i += 1) {
        const closing = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[i]);
        if (closing && closing[1][0] === marker[0] && closing[1].length >= marker.length) break;
        body.push(lines[i].startsWith(indent) ? lines[i].slice(indent.length) : lines[i].trimStart());
      }
      if (i >= lines.length) problems.push(`line ${start + 1}: a fence that is never closed`);
      if (language === '') problems.push(`line ${start + 1}: a fenced block without a language`);
      blocks.push(classify(language, body.join('\n'), start + 1));
      previousProse = 'fence';
      continue;
    }
    const blankBefore = i > 0 && lines[i - 1].trim() === '';
    if (
      /^( {4}|\t)\S/.test(line) &&
      blankBefore &&
      previousProse !== '' &&
      !/^(\s|[-*+] |\d+\. )/.test(previousProse)
    )
      problems.push(`line ${i + 1}: an indented code block (fence it, with its language)`);
    if (line.trim() !== '') previousProse = line;
  }
  return { blocks, problems };
}

function classify(language, text, line) {
  const first = text.split('\n').find((row) => row.trim() !== '') ?? '';
  const file = FILE_NAME.exec(first.trim())?.[1];
  if (file !== undefined) return { language, text, line, kind: 'file', file };
  if (!SHELL_LANGUAGES.has(language)) return { language, text, line, kind: 'other' };
  const reason = NOT_RUN.exec(first.trim())?.[1];
  return reason === undefined
    ? { language, text, line, kind: 'run' }
    : { language, text, line, kind: 'not-run', reason };
}

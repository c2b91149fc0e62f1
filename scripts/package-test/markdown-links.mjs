/**
 * The relative links and images of Markdown files, checked: each must point at a file or folder that
 * exists where the Markdown is read (the repository, or the installed package), and a `#fragment` at a
 * heading of the file it names. Absolute URLs are not followed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Markdown without its fenced code blocks and (unless `keepCode`) inline code spans: links there are not links. */
function proseLines(markdown, keepCode = false) {
  let fence = null;
  return markdown.split('\n').map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) fence = null;
      return '';
    }
    if (opening) {
      fence = opening[1];
      return '';
    }
    return keepCode ? line : line.replace(/(`+)[^`]*?\1/g, '');
  });
}

/** Every relative link and image target: `{ target, line, image }` (`line` counts from 1). */
export function relativeTargets(markdown) {
  const found = [];
  proseLines(markdown).forEach((line, index) => {
    for (const match of line.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      found.push({ target: match[2], line: index + 1, image: match[1] === '!' });
    const reference = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (reference) found.push({ target: reference[1], line: index + 1, image: false });
  });
  return found.filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//'));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings, numbered as GitHub numbers repeated ones. */
export function headingAnchors(markdown) {
  const anchors = new Set();
  for (const line of proseLines(markdown, true)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = headingSlug(heading[1].replace(/`/g, ''));
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n += 1) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/**
 * The problems of the links of `files` (paths relative to `root`), one line each. `shipped(path)`,
 * when given, says whether a path relative to `root` is part of the package: a link to a file that
 * exists in the repository but is not shipped breaks where the package is read.
 */
export function linkProblems(root, files, shipped = () => true) {
  const problems = [];
  for (const file of files) {
    const markdown = readFileSync(join(root, file), 'utf8');
    for (const { target, line, image } of relativeTargets(markdown)) {
      const [pathPart, fragment] = target.split('#', 2);
      const path = pathPart === '' ? join(root, file) : resolve(root, dirname(file), decodeURI(pathPart));
      const inRoot = relative(root, path);
      const where = `${file}:${line}: ${image ? 'image' : 'link'} ${target}`;
      if (inRoot.startsWith('..') || inRoot.startsWith(sep)) problems.push(`${where} leaves the package`);
      else if (!existsSync(path)) problems.push(`${where} points at nothing`);
      else if (!shipped(inRoot.split(sep).join('/')))
        problems.push(`${where} points at a file the package does not ship`);
      else if (fragment && statSync(path).isFile() && path.endsWith('.md')) {
        if (!headingAnchors(readFileSync(path, 'utf8')).has(fragment))
          problems.push(`${where}: no heading has the anchor #${fragment}`);
      }
    }
  }
  return problems;
}

/** Finds the documented operation of a pact request: method plus path template (`/api/links/{id}/`). */
import { listOperations, type OperationEntry } from '../../openapi/checks/openapi-document.js';
import type { JsonObject } from '../../openapi/validation/document-ajv.js';

export interface RoutedOperation {
  entry: OperationEntry;
  operationId: string;
  pathParams: Record<string, string>;
}

export type RouteResult = { ok: true; value: RoutedOperation } | { ok: false; problem: string };

interface Template {
  path: string;
  pattern: RegExp;
  names: string[];
  /** Literal characters: a literal segment beats a parameter (`/a/b/` over `/a/{id}/`). */
  literalLength: number;
  byMethod: Map<string, OperationEntry>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(path: string): Omit<Template, 'byMethod'> {
  const names: string[] = [];
  let source = '';
  let literalLength = 0;
  for (const part of path.split(/(\{[^}]+\})/)) {
    const name = /^\{([^}]+)\}$/.exec(part)?.[1];
    if (name === undefined) {
      source += escapeRegExp(part);
      literalLength += part.length;
    } else {
      names.push(name);
      source += '([^/]+)';
    }
  }
  return { path, pattern: new RegExp(`^${source}$`), names, literalLength };
}

/** The router of one document: `route(method, path)` names the operation or says why none matches. */
export function createOperationRouter(document: JsonObject): (method: string, path: string) => RouteResult {
  const templates = new Map<string, Template>();
  for (const entry of listOperations(document)) {
    const template = templates.get(entry.path) ?? { ...compile(entry.path), byMethod: new Map() };
    template.byMethod.set(entry.method, entry);
    templates.set(entry.path, template);
  }
  const ordered = [...templates.values()].sort((a, b) => b.literalLength - a.literalLength);
  return (method, rawPath) => {
    const path = rawPath.split('?')[0] ?? rawPath;
    const matches = ordered.filter((template) => template.pattern.test(path));
    if (matches.length === 0) return { ok: false, problem: `no documented path matches ${path}` };
    const template = matches.find((candidate) => candidate.byMethod.has(method));
    if (!template) {
      const documented = [...(matches[0]?.byMethod.keys() ?? [])].join(', ');
      return {
        ok: false,
        problem: `${method} is not documented for ${matches[0]?.path} (documented: ${documented})`,
      };
    }
    const values = template.pattern.exec(path)?.slice(1) ?? [];
    const pathParams: Record<string, string> = {};
    template.names.forEach((name, index) => {
      pathParams[name] = decodeURIComponent(values[index] ?? '');
    });
    const entry = template.byMethod.get(method)!;
    return { ok: true, value: { entry, operationId: String(entry.operation.operationId), pathParams } };
  };
}

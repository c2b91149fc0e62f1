/** Rule IDs: every ID of the catalogue (openapi/rules.yaml) is referenced, and every `x-rules` entry exists. */
import { isObject, type JsonObject, type JsonValue } from '../document/json.js';

export interface RuleReferencesReport {
  catalogued: number;
  referenced: number;
  unreferenced: string[];
  unknown: { id: string; location: string }[];
}

function collectReferences(node: JsonValue, path: string, found: { id: string; location: string }[]): void {
  if (Array.isArray(node)) {
    for (const [index, child] of node.entries()) collectReferences(child, `${path}/${index}`, found);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, child] of Object.entries(node)) {
    if (key === 'x-rules' && Array.isArray(child)) {
      for (const id of child) found.push({ id: String(id), location: path || '/' });
    } else {
      collectReferences(child, `${path}/${key}`, found);
    }
  }
}

export function checkRuleReferences(documents: JsonObject[], ruleIds: string[]): RuleReferencesReport {
  const found: { id: string; location: string }[] = [];
  for (const document of documents) collectReferences(document, '', found);
  const catalogue = new Set(ruleIds);
  const referenced = new Set(found.map((reference) => reference.id));
  return {
    catalogued: catalogue.size,
    referenced: [...referenced].filter((id) => catalogue.has(id)).length,
    unreferenced: ruleIds.filter((id) => !referenced.has(id)),
    unknown: found.filter((reference) => !catalogue.has(reference.id)),
  };
}

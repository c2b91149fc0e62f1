/**
 * Finds every example of a bundled OpenAPI document (media-type `example`/`examples`, parameter
 * examples, schema `examples`) and validates it against the schema it belongs to.
 */
import { createDocumentAjv, describeErrors } from '../document/document-ajv.js';
import { isObject, type JsonObject, type JsonValue } from '../document/json.js';

export interface ExampleFinding {
  location: string;
  problems: string[];
}

export interface ExampleReport {
  checked: number;
  failures: ExampleFinding[];
}

interface ExampleSite {
  location: string;
  schema: JsonValue;
  value: JsonValue;
}

function pointer(parts: string[]): string {
  return `#/${parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

function collectExampleSites(node: JsonValue, path: string[], sites: ExampleSite[]): void {
  if (Array.isArray(node)) {
    for (const [index, child] of node.entries()) collectExampleSites(child, [...path, String(index)], sites);
    return;
  }
  if (!isObject(node)) return;
  const schema = node.schema;
  if (schema !== undefined && 'example' in node) {
    sites.push({ location: pointer([...path, 'example']), schema, value: node.example ?? null });
  }
  if (schema !== undefined && isObject(node.examples)) {
    for (const [name, example] of Object.entries(node.examples)) {
      if (isObject(example) && 'value' in example) {
        sites.push({ location: pointer([...path, 'examples', name]), schema, value: example.value ?? null });
      }
    }
  }
  for (const [key, child] of Object.entries(node)) {
    if (key === 'example' || key === 'examples') continue;
    collectExampleSites(child, [...path, key], sites);
  }
}

/** Validates every example of the document; a schema's own `examples` array is checked by Ajv itself. */
export function checkExamples(document: JsonObject): ExampleReport {
  const ajv = createDocumentAjv(document);
  const sites: ExampleSite[] = [];
  collectExampleSites(document, [], sites);
  const failures: ExampleFinding[] = [];
  for (const site of sites) {
    const validate = ajv.compile(site.schema);
    if (!validate(site.value)) failures.push({ location: site.location, problems: describeErrors(validate) });
  }
  const schemaExamples = countSchemaExamples(document, ajv);
  return {
    checked: sites.length + schemaExamples.checked,
    failures: [...failures, ...schemaExamples.failures],
  };
}

function countSchemaExamples(document: JsonObject, ajv: ReturnType<typeof createDocumentAjv>): ExampleReport {
  const failures: ExampleFinding[] = [];
  let checked = 0;
  const visit = (node: JsonValue, path: string[]): void => {
    if (Array.isArray(node)) {
      for (const [index, child] of node.entries()) visit(child, [...path, String(index)]);
      return;
    }
    if (!isObject(node)) return;
    const inSchema = path.includes('schema') || path.includes('schemas');
    if (inSchema && Array.isArray(node.examples) && (node.type !== undefined || node.$ref !== undefined)) {
      const { examples, ...schema } = node;
      const validate = ajv.compile(schema);
      for (const [index, value] of examples.entries()) {
        checked += 1;
        if (!validate(value)) {
          failures.push({
            location: pointer([...path, 'examples', String(index)]),
            problems: describeErrors(validate),
          });
        }
      }
    }
    for (const [key, child] of Object.entries(node)) visit(child, [...path, key]);
  };
  visit(document, []);
  return { checked, failures };
}

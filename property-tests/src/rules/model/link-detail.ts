/** A link as the target shows it, read into the model's terms and compared with the model. */
import { isObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { HttpResponse } from '../../http/http-client.js';
import { describeAnswer } from '../expect-response.js';
import { fail } from '../rule.js';
import type { LinkDetail } from './link-model.js';

const text = (value: JsonValue | undefined) => (typeof value === 'string' ? value : null);

/** The id and predicted fields of a link body, or a Violation saying what is missing. */
export function readLink(response: HttpResponse, what: string): { id: string; detail: LinkDetail } {
  const body = response.json;
  if (!isObject(body) || typeof body.id !== 'string') {
    fail(`${what}: wanted a link with an \`id\`, got ${describeAnswer(response)}`);
  }
  return { id: body.id, detail: detailOf(body) };
}

export function detailOf(body: Record<string, JsonValue>): LinkDetail {
  const resources = Array.isArray(body.fetch_resources) ? body.fetch_resources : [];
  return {
    institution: String(body.institution),
    access_mode: String(body.access_mode),
    status: String(body.status),
    external_id: text(body.external_id),
    stale_in: text(body.stale_in),
    fetch_resources: resources.map(String),
  };
}

const sorted = (values: string[]) => [...values].sort().join(',');

/** Each predicted field where the target's link differs from the model's, as `field: model X, target Y`. */
export function detailDifferences(expected: LinkDetail, actual: LinkDetail): string[] {
  const differences: string[] = [];
  for (const field of ['institution', 'access_mode', 'status', 'external_id', 'stale_in'] as const) {
    if (expected[field] !== actual[field]) {
      differences.push(`${field}: model ${expected[field]}, target ${actual[field]}`);
    }
  }
  // `fetch_resources` is a set (uniqueItems): its order is not part of the link.
  if (sorted(expected.fetch_resources) !== sorted(actual.fetch_resources)) {
    differences.push(
      `fetch_resources: model [${expected.fetch_resources}], target [${actual.fetch_resources}]`,
    );
  }
  return differences;
}

/** Fails when the target's link differs from the model's. */
export function expectDetail(expected: LinkDetail, actual: LinkDetail, what: string): void {
  const differences = detailDifferences(expected, actual);
  if (differences.length > 0) fail(`${what}: the link differs from the model: ${differences.join('; ')}`);
}

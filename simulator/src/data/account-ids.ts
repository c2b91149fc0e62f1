/** Records that summarise several accounts of a link name them (`namesAccounts`, DATA-RETRIEVE). */
import type { JsonObject } from '../../../openapi/document/json.js';

/**
 * Writes account ids at a member path: `accounts[]` takes them all; `income_streams[].account_id`
 * gives the items one each, in turn.
 */
export function writeIds(node: JsonObject, steps: string[], ids: string[]): void {
  const [step, ...rest] = steps as [string, ...string[]];
  const name = step.endsWith('[]') ? step.slice(0, -2) : step;
  if (rest.length === 0) {
    node[name] = step.endsWith('[]') ? [...ids] : (ids[0] as string);
    return;
  }
  const items = node[name];
  if (!Array.isArray(items)) return;
  items.forEach((item, index) => {
    if (typeof item === 'object' && item !== null && !Array.isArray(item))
      writeIds(item, rest, [ids[index % ids.length] as string]);
  });
}

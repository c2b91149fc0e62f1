/**
 * ERR-404: an unknown resource id gets 404. A 400 whose error names a path parameter that is a
 * well-formed value of its schema took an unknown id for a bad parameter.
 */
import type { BridgeDocument } from '../../document/bridge-document.js';
import type { Finding } from '../finding.js';
import { ruleFinding, type SessionCheck } from '../session-check.js';

export function createUnknownIdsCheck(document: BridgeDocument): SessionCheck {
  return {
    observe(view) {
      if (view.control || view.status !== 400 || !view.route.ok || !Array.isArray(view.responseJson))
        return [];
      const findings: Finding[] = [];
      const { pathParams } = view.route;
      for (const item of view.responseJson as { field?: unknown }[]) {
        const name = typeof item?.field === 'string' ? item.field : undefined;
        const parameter = view.operation?.parameters.find((p) => p.in === 'path' && p.name === name);
        const value = name === undefined ? undefined : pathParams[name];
        if (parameter === undefined || value === undefined) continue;
        if (document.ajv.compile(parameter.schema)(value))
          findings.push(
            ruleFinding(
              view,
              'ERR-404',
              `the well-formed ${name} ${value} was answered 400 naming it, not 404`,
            ),
          );
      }
      return findings.slice(0, 1);
    },
  };
}

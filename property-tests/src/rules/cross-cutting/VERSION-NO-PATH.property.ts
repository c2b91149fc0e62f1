/**
 * VERSION-NO-PATH: no path of the document has a version segment and `info.version` is the interface
 * version; the target serves the unversioned paths and has nothing at versioned ones (404), and the
 * API root, when it states a version, states that one.
 */
import fc from 'fast-check';
import { isObject } from '../../../../openapi/document/json.js';
import { describeAnswer } from '../expect-response.js';
import { defineRule, fail, type SuiteContext } from '../rule.js';

const VERSION_SEGMENT = /\/(v\d+(\.\d+)*|\d+\.\d+(\.\d+)?)\//i;
/** The interface version the document encodes (VERSION-NO-PATH). */
export const INTERFACE_VERSION = '1.223.0';

interface Input {
  path: string;
  version: string;
  position: 'prefix' | 'after-first';
}

function checkDocument(suite: SuiteContext): void {
  const versioned = suite.document.paths.filter((path) => VERSION_SEGMENT.test(path));
  if (versioned.length > 0) fail(`document paths with a version segment: ${versioned.join(', ')}`);
  if (suite.document.version !== INTERFACE_VERSION) {
    fail(`info.version is ${suite.document.version}, not the interface version ${INTERFACE_VERSION}`);
  }
}

function versioned({ path, version, position }: Input): string {
  if (position === 'prefix') return `/${version}${path}`;
  const [, first, ...rest] = path.split('/');
  return `/${first}/${version}/${rest.join('/')}`;
}

export const versionNoPath = defineRule<Input, string[]>({
  id: 'VERSION-NO-PATH',
  area: 'cross-cutting',
  quiet: true,
  runs: 10,
  prepare: async (suite) =>
    suite.operations.filter((op) => op.method === 'GET' && !op.path.includes('{')).map((op) => op.path),
  arbitrary: (_, paths) =>
    fc.record({
      path: fc.constantFrom('/api/', ...paths),
      version: fc.constantFrom('v1', 'v2', 'v1.223', INTERFACE_VERSION, '1.223'),
      position: fc.constantFrom<Input['position']>('prefix', 'after-first'),
    }),
  async check(input, run) {
    checkDocument(run);
    const root = await run.http.request({ method: 'GET', url: '/api/' });
    if (root.status !== 200) fail(`GET /api/ (no version segment) answered ${describeAnswer(root)}`);
    if (
      isObject(root.json) &&
      typeof root.json.version === 'string' &&
      root.json.version !== INTERFACE_VERSION
    ) {
      fail(`GET /api/ states version ${root.json.version}, not ${INTERFACE_VERSION}`);
    }
    const url = versioned(input);
    const response = await run.http.request({ method: 'GET', url });
    if (response.status !== 404)
      fail(`GET ${url} (a versioned path) answered ${describeAnswer(response)}; wanted 404`);
  },
});

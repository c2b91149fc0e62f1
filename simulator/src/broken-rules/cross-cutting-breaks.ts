/**
 * The cross-cutting rules broken the way real servers get them wrong: authentication, errors, responses,
 * pages, filters, the root and the paths. Each is a wrapper of an edge or a value of the rule policy.
 */

import { parseBasic } from '../../../openapi/config/api-keys.js';
import { type ApiError, apiError } from '../core/api-error.js';
import type { SimRequest } from '../core/http-types.js';
import type { ApiKey } from '../core/keys.js';
import { ok } from '../core/result.js';
import {
  type BreakContext,
  type Edges,
  mapHandlerErrors,
  type RuleBreaks,
  withStages,
  wrapValidators,
} from './edges.js';
import { oldDeprecatedColumns, omitNulls, rewriteSuccessBodies } from './response-breaks.js';
import { sharedAccountStore } from './shared-account-store.js';

/** API-ROOT broken: GET /api/ kept open as a health check (an anonymous tenant answers it). */
const openRoot = (edges: Edges): Edges =>
  withStages(edges, ({ authenticate }) => ({
    authenticate: (request) => {
      const checked = authenticate(request);
      const root = request.method === 'GET' && request.path === '/api/';
      return checked.ok || !root ? checked : ok({ id: 'anonymous', environment: 'production' });
    },
  }));

/**
 * An authentication stage that lets in what the real one refused when the credentials name a key of the
 * table and `admits` that key with the password sent.
 */
function letKeysIn(
  edges: Edges,
  { keys, environment }: BreakContext,
  admits: (key: ApiKey, password: string) => boolean,
): Edges {
  return withStages(edges, ({ authenticate }) => ({
    authenticate: (request) => {
      const checked = authenticate(request);
      const credentials = parseBasic(request.headers.authorization);
      const key = keys.find((candidate) => candidate.secretId === credentials?.id);
      if (checked.ok || !key || !credentials || !admits(key, credentials.password)) return checked;
      return ok({ id: key.secretId, environment });
    },
  }));
}

/** PAGE-MAX broken: integer query values parsed with parseInt, so `1.5` and `10e` pass as 1 and 10. */
function parseIntQuery(request: SimRequest, integers: readonly string[]): SimRequest {
  const query = new URLSearchParams(request.query);
  for (const name of integers) {
    const value = query.get(name);
    if (value !== null && /^-?\d/.test(value)) query.set(name, String(Number.parseInt(value, 10)));
  }
  return { ...request, query };
}

/** ERR-REQUIRED broken: a missing member reported as the parent's generic `invalid`. */
function genericInvalid(error: ApiError): ApiError {
  if (error.code !== 'required' || error.field === undefined) return error;
  const parent = error.field.includes('.') ? error.field.slice(0, error.field.lastIndexOf('.')) : 'input';
  return { code: 'invalid', field: parent, message: `The field \`${parent}\` is not valid.` };
}

const VERSION_SEGMENT = /\/(v\d+(\.\d+)*|\d+\.\d+(\.\d+)?)(?=\/)/i;
const TEXT_PAGES: Readonly<Record<number, string>> = { 500: 'Internal Server Error', 408: 'Request Timeout' };

/** ERR-BODY broken: the one request id a server generated at start-up and renders on every error. */
const STARTUP_REQUEST_ID = '5f0c1d2e-3a4b-4c5d-8e6f-708192a3b4c5';

export const CROSS_CUTTING_BREAKS = {
  'AUTH-BASIC': {
    description: 'checks that the key id exists, not its secret: a wrong password is let in',
    edges: (edges, context) => letKeysIn(edges, context, (key) => key.environment === context.environment),
  },
  'AUTH-ENV-KEYS': {
    description: 'one key table for both environments: a key of the other environment is let in',
    edges: (edges, context) => letKeysIn(edges, context, (key, password) => key.secretPassword === password),
  },
  'AUTH-TENANT': {
    description: 'queries not scoped by API key: every key reads, changes and deletes one shared account',
    edges: (edges) => ({ ...edges, store: sharedAccountStore(edges.store) }),
  },
  'ERR-BODY': {
    description: 'the framework\'s default error renderer: `{"detail": ...}`, not the error array',
    edges: (edges) =>
      withStages(edges, ({ renderErrors }) => ({
        renderErrors: (errors, requestId) => {
          const rendered = renderErrors(errors, requestId);
          const detail = (rendered.body as { message: string }[])[0]?.message;
          return { ...rendered, body: { detail } };
        },
      })),
    variants: {
      'constant-request-id': {
        description: 'every error carries the same `request_id` (one generated when the server started)',
        edges: (edges) =>
          withStages(edges, ({ renderErrors }) => ({
            renderErrors: (errors) => renderErrors(errors, STARTUP_REQUEST_ID),
          })),
      },
    },
  },
  'ERR-REQUIRED': {
    description: "a missing required member reported with the validator's generic code `invalid`",
    edges: (edges) =>
      wrapValidators(edges, (validate) => (request, pathParams) => {
        const checked = validate(request, pathParams);
        if (checked.ok) return checked;
        const [first, ...rest] = checked.error;
        return { ok: false, error: [genericInvalid(first), ...rest.map(genericInvalid)] };
      }),
  },
  'ERR-404': {
    description: 'an unknown id in the path answered 400 `invalid` (taken for a bad parameter)',
    edges: (edges) =>
      mapHandlerErrors(edges, (errors) =>
        errors[0].code === 'not_found'
          ? apiError('invalid', { field: errors[0].field ?? 'id', message: 'Invalid id.' })
          : errors,
      ),
  },
  'ERR-405': {
    description: 'a router that matches method and path together: an undeclared method gets 404',
    edges: (edges) =>
      withStages(edges, ({ makeRouter }) => ({
        makeRouter: (operations) => {
          const route = makeRouter(operations);
          return (method, path) => {
            const routed = route(method, path);
            if (routed.ok || routed.error[0].code !== 'method_not_allowed') return routed;
            return { ok: false, error: apiError('not_found', { message: `No resource at ${path}.` }) };
          };
        },
      })),
  },
  'ERR-500-408': {
    description: "500 and 408 served as the framework's plain-text error page",
    edges: (edges) =>
      withStages(edges, ({ renderErrors }) => ({
        renderErrors: (errors, requestId) => {
          const rendered = renderErrors(errors, requestId);
          const page = TEXT_PAGES[rendered.status];
          if (page === undefined) return rendered;
          return {
            status: rendered.status,
            headers: { 'content-type': 'text/plain' },
            // The adapter writes what serialize gives only for an answer with a body.
            body: page,
            serialize: () => Buffer.from(page),
          };
        },
      })),
  },
  'RESP-REQUIRED-NULLABLE': {
    description: 'a serializer that omits null members (omitempty)',
    edges: (edges) => rewriteSuccessBodies(edges, omitNulls),
  },
  'RESP-DEPRECATED': {
    description: 'deprecated members served from their old columns: `bank_product_id` as a number',
    edges: (edges) => rewriteSuccessBodies(edges, oldDeprecatedColumns),
  },
  'PAGE-DEFAULT': {
    description: '`next` and `previous` built from `page` and `page_size` alone, without the filters',
    policy: (policy) => ({ ...policy, lists: { ...policy.lists, pageLinksKeepQuery: false } }),
    variants: {
      'relative-links': {
        description: '`next` and `previous` written relative (path and query, no scheme or host)',
        policy: (policy) => ({ ...policy, lists: { ...policy.lists, pageLinksAbsolute: false } }),
      },
    },
  },
  'PAGE-MAX': {
    description: '`page` and `page_size` parsed with parseInt: `1.5` and `10e` served as 1 and 10',
    edges: (edges) =>
      wrapValidators(edges, (validate, operation) => {
        const integers = operation.parameters
          .filter((p) => p.in === 'query' && (p.schema as { type?: unknown }).type === 'integer')
          .map((p) => p.name);
        return (request, pathParams) => validate(parseIntQuery(request, integers), pathParams);
      }),
  },
  'PAGE-NAV': {
    description: 'an offset counted from 1: the first record of every list is never served',
    policy: (policy) => ({ ...policy, lists: { ...policy.lists, firstRecordOffset: 1 } }),
  },
  'FILTER-RANGE': {
    description: "the range's upper bound compared exclusively (`<`, not `<=`)",
    policy: (policy) => ({ ...policy, lists: { ...policy.lists, rangeUpperBound: 'exclusive' } }),
  },
  'FILTER-IN': {
    description: '`__in` keeps only the first value of its list',
    policy: (policy) => ({ ...policy, lists: { ...policy.lists, inValues: 'first' } }),
  },
  'FILTER-LOOKUP': {
    description: '`__gt` and `__lt` compared inclusively, as `__gte` and `__lte`',
    policy: (policy) => ({ ...policy, lists: { ...policy.lists, strictBounds: 'inclusive' } }),
    variants: {
      'icontains-case': {
        description: '`__icontains` compared case-sensitively (a plain `includes`)',
        policy: (policy) => ({ ...policy, lists: { ...policy.lists, containsIgnoresCase: false } }),
      },
    },
  },
  'LIST-LINK-REQUIRED': {
    description: '`link` optional on every list: without it, every link of the key is listed',
    edges: (edges) =>
      withStages(edges, ({ validatorFor }) => ({
        validatorFor: (operation, ajv) => {
          const parameters = operation.parameters.map((p) =>
            p.in === 'query' && p.name === 'link' ? { ...p, required: false } : p,
          );
          return validatorFor({ ...operation, parameters }, ajv);
        },
      })),
  },
  'API-ROOT': {
    description: 'GET /api/ exempt from authentication (a health check): 200 without credentials',
    edges: openRoot,
  },
  'VERSION-NO-PATH': {
    description: 'a router that drops a version segment: `/v1/api/...` served like `/api/...`',
    edges: (edges) =>
      withStages(edges, ({ makeRouter }) => ({
        makeRouter: (operations) => {
          const route = makeRouter(operations);
          return (method, path) => route(method, path.replace(VERSION_SEGMENT, ''));
        },
      })),
  },
} satisfies Record<string, RuleBreaks>;

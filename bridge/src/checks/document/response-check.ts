/**
 * An answer against its operation in the document: an undocumented operation (VERSION-NO-PATH when a
 * version segment hides a documented path; ERR-405 for a method the path does not declare), an
 * undocumented status, a body that breaks its schema, members the document does not name.
 */
import type { BridgeDocument } from '../../document/bridge-document.js';
import { isBlankBody } from '../../exchange/exchange.js';
import { type ExchangeView, isSuccess, operationName } from '../exchange-view.js';
import type { Finding } from '../finding.js';
import { answerSchema, errorBodyRule, schemaFindings, undocumentedMembers } from './schema-findings.js';

/** A success status no documented one explains, named after the rule that sets the operation's status. */
const STATUS_RULES: Readonly<Record<string, string>> = {
  registerLink: 'LINK-REGISTER',
  refreshLink: 'LINK-REFRESH-202',
  deleteLink: 'LINK-DELETE-SYNC',
};

const VERSION_SEGMENT = /^\/v\d+(?=\/)/i;

function unrouted(document: BridgeDocument, view: ExchangeView): Finding[] {
  const { route } = view;
  if (route.ok) return [];
  const base = { operation: operationName(view), status: view.status, exchange: view.index };
  if (route.reason === 'method') {
    // ERR-405: a method the resource does not accept gets 405. Not HEAD or OPTIONS, as in the
    // conformance suite's ERR-405: HTTP servers answer HEAD like GET, and OPTIONS is the CORS preflight
    // a browser sends before a call from another origin (gateways answer it).
    if (view.status === 405 || view.method === 'HEAD' || view.method === 'OPTIONS') return [];
    return [
      {
        ...base,
        kind: 'rule',
        rule: 'ERR-405',
        message: `${view.method} is not documented for ${route.template}; answered ${view.status}, not 405`,
      },
    ];
  }
  if (!isSuccess(view)) return [];
  // VERSION-NO-PATH: paths carry no version segment; one answered like the path without it.
  const unversioned = view.apiPath.replace(VERSION_SEGMENT, '');
  const versioned = unversioned !== view.apiPath && document.route(view.method, unversioned).ok;
  return [
    {
      ...base,
      kind: 'undocumented-operation',
      ...(versioned && { rule: 'VERSION-NO-PATH' }),
      message: versioned
        ? `${view.apiPath} answered ${view.status} like ${unversioned}: the paths carry no version segment`
        : `no documented operation is ${view.method} ${view.apiPath}, yet it answered ${view.status}`,
    },
  ];
}

function undocumentedStatus(view: ExchangeView): Finding {
  const operation = view.operation!;
  const retrieval = operation.method === 'POST' && operation.rules.includes('DATA-RETRIEVE');
  const rule = isSuccess(view)
    ? (STATUS_RULES[operation.operationId] ?? (retrieval ? 'DATA-RETRIEVE' : undefined))
    : undefined;
  const documented = [...operation.responses.keys()].join(', ');
  return {
    kind: 'undocumented-status',
    ...(rule && { rule }),
    operation: operation.operationId,
    status: view.status,
    message: `${operation.operationId} does not document ${view.status} (documented: ${documented})`,
    exchange: view.index,
  };
}

function bodyFindings(
  document: BridgeDocument,
  view: ExchangeView,
  schema: NonNullable<ReturnType<BridgeDocument['responseOf']>>['schema'],
): Finding[] {
  const base = { operation: operationName(view), status: view.status, exchange: view.index };
  const { bodyOmitted, bodyDigest } = view.exchange.response;
  // Left out for its size: nothing to say; left out as unreadable (a digest): a body that is not JSON.
  if (bodyOmitted && bodyDigest === undefined) return [];
  const empty = bodyDigest === undefined && isBlankBody(view.exchange.response);
  if (schema === undefined) {
    return empty
      ? []
      : [{ ...base, kind: 'schema', message: `answered a body where the document describes none` }];
  }
  if (empty || !view.responseIsJson || view.responseJson === undefined) {
    const rule = view.status >= 400 ? errorBodyRule(view.status) : undefined;
    const what = empty
      ? 'no body'
      : `a body that is not JSON (${view.exchange.response.headers.find(([n]) => n === 'content-type')?.[1] ?? 'no content-type'})`;
    return [
      {
        ...base,
        kind: 'schema',
        ...(rule && { rule }),
        message: `answered ${what} where the document describes a JSON body`,
      },
    ];
  }
  const shaped = answerSchema(document, view, schema);
  return [...schemaFindings(document, view, shaped), ...undocumentedMembers(document, view, shaped)];
}

export function checkResponse(document: BridgeDocument, view: ExchangeView): Finding[] {
  if (view.exchange.upstreamFailure) return [];
  if (!view.operation) return unrouted(document, view);
  const documented = document.responseOf(view.operation, view.status);
  if (documented === undefined) return [undocumentedStatus(view)];
  return bodyFindings(document, view, documented.schema);
}

/**
 * A request that breaks the document is the client's finding; the server's answer to it is the
 * server's: a success where the document refuses (the API is more lenient than its document; named
 * after the rule when one governs the parameter), and ERR-REQUIRED's shape of the 400 that answers a
 * missing required field.
 */
import type { BridgeDocument } from '../../document/bridge-document.js';
import { type ExchangeView, isSuccess, operationName } from '../exchange-view.js';
import type { Finding } from '../finding.js';
import { type RequestProblem, requestProblems } from './request-problems.js';

/** The rule that says a request with this problem is refused. */
function ruleRefusing(problem: RequestProblem): string | undefined {
  // LIST-LINK-REQUIRED: lists of the link-scoped resources need `link`.
  if (problem.where === 'query' && problem.field === 'link' && problem.keyword === 'required')
    return 'LIST-LINK-REQUIRED';
  // PAGE-MAX: `page` and `page_size` below 1 or not integers get 400.
  if (problem.where === 'query' && (problem.field === 'page' || problem.field === 'page_size'))
    return 'PAGE-MAX';
  // PAY-AUTH-V2-REQUIRED: payment authorizations need `Payments-BR.V2`.
  if (problem.where === 'header' && problem.field === 'x-service-api-resource-version')
    return 'PAY-AUTH-V2-REQUIRED';
  if (problem.keyword === 'required' && problem.field !== '') return 'ERR-REQUIRED';
  return undefined;
}

interface ErrorItem {
  code?: unknown;
  field?: unknown;
}

/** ERR-REQUIRED: the 400 names each missing field with code `required`. */
function namesMissing(view: ExchangeView, problem: RequestProblem): boolean {
  const items = Array.isArray(view.responseJson) ? (view.responseJson as ErrorItem[]) : [];
  return items.some((item) => item?.code === 'required' && item.field === problem.field);
}

export function checkRequest(document: BridgeDocument, view: ExchangeView): Finding[] {
  const problems = requestProblems(document, view);
  const base = { operation: operationName(view), status: view.status, exchange: view.index };
  const findings: Finding[] = problems.map((problem) => ({
    ...base,
    kind: 'request',
    member: problem.field || undefined,
    message: `the request breaks the document: ${problem.message}`,
  }));
  if (isSuccess(view)) {
    // Parameters the document does not declare are ignored by design, not accepted against it.
    for (const problem of problems.filter((p) => p.keyword !== 'undocumented')) {
      const rule = ruleRefusing(problem);
      findings.push({
        ...base,
        kind: 'accepted-invalid',
        ...(rule && { rule }),
        member: problem.field || undefined,
        message: `answered ${view.status} to a request the document refuses (${problem.message})`,
      });
    }
  }
  if (view.status === 400) {
    for (const problem of problems) {
      if (problem.keyword !== 'required' || problem.field === '' || namesMissing(view, problem)) continue;
      findings.push({
        ...base,
        kind: 'rule',
        rule: 'ERR-REQUIRED',
        member: problem.field,
        message: `the 400 for the missing ${problem.where} field \`${problem.field}\` has no error with code \`required\` and that field`,
      });
    }
  }
  return findings;
}

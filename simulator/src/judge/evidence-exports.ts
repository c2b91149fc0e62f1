/**
 * The one `export` line printed before a tenant's evidence, naming every variable its curl lines use
 * (`$OFKIT_KEY`, `$OFKIT_SECRET`, `$WEBHOOK_URL`, `$WEBHOOK_BEARER`), so that they run as pasted. A
 * secret is never printed (CLIENT-NO-SECRETS): only the simulator's documented keys, which are public,
 * are written out; any other secret and the webhook bearer token show a placeholder to replace.
 */
import { shellQuote } from '../../../openapi/security/shell-quote.js';
import type { JudgeReport } from './client-rules.js';

/** What the judge knows of where the evidence's variables come from. */
export interface EvidenceSources {
  /** The key's secret when it is public (a documented default key), else undefined. */
  publicSecret(keyId: string): string | undefined;
  /** The tenant's webhook receiver, when one is configured. */
  webhookUrl(tenantId: string): string | undefined;
}

const VARIABLE = /\$(OFKIT_KEY|OFKIT_SECRET|WEBHOOK_URL|WEBHOOK_BEARER)\b/g;
const ORDER = ['OFKIT_KEY', 'OFKIT_SECRET', 'WEBHOOK_URL', 'WEBHOOK_BEARER'] as const;

/** A word the shell reads back as `text`, whatever it holds: bare when it holds nothing the shell reads. */
export const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : shellQuote(text));

function variableValue(name: (typeof ORDER)[number], tenant: string, sources: EvidenceSources): string {
  switch (name) {
    case 'OFKIT_KEY':
      return shellWord(tenant);
    case 'OFKIT_SECRET':
      return shellWord(sources.publicSecret(tenant) ?? `<the secret of key ${tenant}>`);
    case 'WEBHOOK_URL':
      return shellWord(sources.webhookUrl(tenant) ?? '<your webhook receiver URL>');
    case 'WEBHOOK_BEARER':
      return shellWord('<your webhook bearer token>');
  }
}

/** `export NAME=value ...` for the variables the report's evidence uses; undefined when it uses none. */
export function evidenceExport(report: JudgeReport, sources: EvidenceSources): string | undefined {
  const used = new Set<string>();
  for (const verdict of report.verdicts) {
    if (verdict.verdict !== 'violated') continue;
    for (const line of verdict.evidence) for (const match of line.matchAll(VARIABLE)) used.add(match[1]!);
  }
  const names = ORDER.filter((name) => used.has(name));
  if (names.length === 0) return undefined;
  return `export ${names.map((name) => `${name}=${variableValue(name, report.tenant, sources)}`).join(' ')}`;
}

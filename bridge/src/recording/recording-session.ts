/**
 * One recording's pipeline, exchange by exchange: redact (nothing secret or personal goes further),
 * check (the document's checks and the rules', the client judge), append to the HAR file when there is
 * one, and tell the caller of each new finding. The live proxy feeds it as exchanges happen; `ofkit
 * drift` feeds it from HAR files.
 */

import { type CheckSession, createCheckSession } from '../checks/check-session.js';
import type { Finding } from '../checks/finding.js';
import type { BridgeDocument } from '../document/bridge-document.js';
import type { Exchange } from '../exchange/exchange.js';
import { toHarEntry } from '../har/har-entry.js';
import type { HarWriter } from '../har/har-writer.js';
import { createRedactor } from '../redaction/redact-exchange.js';

export interface RecordingSessionOptions {
  document: BridgeDocument;
  /** The implementation's base path (`/ofapi`), '' at the root. */
  basePath: string;
  keepPersonal: boolean;
  /** The pseudonyms' key (random per recording). */
  pseudonymKey: Buffer;
  har?: HarWriter;
  /** Told of each finding as its exchange is checked (with the redacted exchange). */
  onFinding?: (finding: Finding, exchange: Exchange) => void;
}

export interface RecordingSession {
  /** Redacts, checks and records one exchange. */
  accept(exchange: Exchange): Promise<void>;
  readonly checks: CheckSession;
  /** Every finding so far. */
  findings(): readonly Finding[];
}

export function createRecordingSession(options: RecordingSessionOptions): RecordingSession {
  const redactor = createRedactor({
    document: options.document,
    key: options.pseudonymKey,
    keepPersonal: options.keepPersonal,
    basePath: options.basePath,
  });
  const checks = createCheckSession(options.document, options.basePath);
  const findings: Finding[] = [];
  return {
    checks,
    findings: () => findings,
    async accept(exchange) {
      const redacted = redactor.redact(exchange);
      const written = options.har?.append(toHarEntry(redacted));
      for (const finding of checks.observe(redacted)) {
        findings.push(finding);
        options.onFinding?.(finding, redacted);
      }
      await written;
    },
  };
}

/**
 * The bridge's redaction for evidence kept outside a recording (the go-live bundle of `ofkit golive`):
 * the exchanges of a run teach it every credential and personal value they carried (as a recording's
 * redactor learns them), then a client's output line or a webhook's payload is given back with each of
 * those values replaced by its pseudonym, and the API key's id and secret, in every form they travel
 * (plain, URL-encoded, the Basic value), by the placeholders the judge's curl lines use.
 */
import { randomBytes } from 'node:crypto';
import { loadBridgeDocument } from '../document/bridge-document.js';
import type { Exchange } from '../exchange/exchange.js';
import { createRedactor } from './redact-exchange.js';

export type { Exchange as EvidenceExchange } from '../exchange/exchange.js';

export interface EvidenceRedaction {
  /** Learns the credentials and personal values of one exchange of the run. */
  see(exchange: Exchange): void;
  /** A line of free text with what was learnt, and the key, masked. */
  text(line: string): string;
  /** A JSON value (a webhook's payload) with credentials by name and what was learnt masked. */
  json(value: unknown): unknown;
}

/** The key's forms in a text, each with its placeholder, the Basic value first (it holds the others). */
function keyForms(key: { id: string; secret: string }): [string, string][] {
  const basic = Buffer.from(`${key.id}:${key.secret}`).toString('base64');
  return [
    [basic, '$OFKIT_KEY:$OFKIT_SECRET'],
    [key.secret, '$OFKIT_SECRET'],
    [encodeURIComponent(key.secret), '$OFKIT_SECRET'],
    [key.id, '$OFKIT_KEY'],
    [encodeURIComponent(key.id), '$OFKIT_KEY'],
  ].filter(([form]) => (form as string).length > 0) as [string, string][];
}

/** `key`: the API key the client was given; `pseudonymKey`: the pseudonyms' key (random per run by default). */
export function createEvidenceRedaction(
  key: { id: string; secret: string },
  pseudonymKey: Buffer = randomBytes(32),
): EvidenceRedaction {
  const redactor = createRedactor({
    document: loadBridgeDocument(),
    key: pseudonymKey,
    keepPersonal: false,
    basePath: '',
  });
  const forms = keyForms(key);
  const masked = (line: string) =>
    forms.reduce((text, [form, placeholder]) => text.split(form).join(placeholder), line);
  return {
    see: (exchange) => redactor.learn(exchange),
    text: (line) => redactor.text(masked(line)),
    json: (value) => JSON.parse(masked(JSON.stringify(redactor.json(value)))),
  };
}

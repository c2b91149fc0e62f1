/**
 * A failure's exchanges as curl commands a person can paste. Credentials never appear: configured keys
 * are the shell variables of masked-auth.ts (`-u "$OFKIT_KEY:$OFKIT_SECRET"`), set them first.
 */
import { shellQuote } from '../../../openapi/security/shell-quote.js';
import type { Exchange } from '../http/http-client.js';

const VARIABLE = /^\$OFKIT_[A-Z0-9_]+$/;

/** Text inside double quotes, with our variables left to expand and everything else literal. */
function doubleQuotedPart(part: string): string {
  return VARIABLE.test(part) ? part : part.replace(/[\\"$`]/g, '\\$&');
}

function authArguments(exchange: Exchange): string[] {
  const auth = exchange.request.auth;
  if (auth.kind === 'basic')
    return [`-u "${doubleQuotedPart(auth.user)}:${doubleQuotedPart(auth.password)}"`];
  if (auth.kind === 'header') return [`-H ${shellQuote(`authorization: ${auth.value}`)}`];
  return [];
}

/** One exchange: a comment with what the target answered, then the command. */
export function toCurl(exchange: Exchange, index: number): string {
  const { method, url, headers, body } = exchange.request;
  const parts = [`curl -sS -i -X ${method} ${shellQuote(url)}`, ...authArguments(exchange)];
  for (const [name, value] of Object.entries(headers)) {
    if (name !== 'accept') parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (body !== undefined) parts.push(`--data-raw ${shellQuote(body)}`);
  const answer = `${exchange.response.status} ${exchange.response.contentType}`.trim();
  return [`# ${index + 1}. answered ${answer}`, parts.join(' \\\n  ')].join('\n');
}

/** Every exchange, in order. */
export function toCurlScript(exchanges: readonly Exchange[]): string {
  return exchanges.map(toCurl).join('\n');
}

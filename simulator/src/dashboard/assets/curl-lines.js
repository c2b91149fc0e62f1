// The request log's curl lines as a user pastes them: one `export` preamble naming every variable they
// use (the tenant's key, and a value for each credential field the log masks in bodies), and each line
// with its masked body fields read from those variables, so that the pasted commands run as printed.
// Values are quoted by the one shell-quoting function of every printed command (served from its source).
import { shellQuote } from './shell-quote.js';

/** A body field the request log masked (CLIENT-NO-SECRETS): `"password":"***"`. */
const MASKED = /"([A-Za-z0-9_]+)":"\*\*\*"/g;

/** The shell variable that replays a masked body field: `password` -> `OFKIT_BODY_PASSWORD`. */
export const variableOf = (field) => `OFKIT_BODY_${field.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

/** A value the simulator accepts for a masked field: the MFA token it accepts, else any password. */
const replayValue = (field) => (/token/i.test(field) ? '123456' : 'ofkit-replay');

/** The masked fields of the lines, in order of first use. */
export function maskedFields(lines) {
  const fields = [];
  for (const line of lines)
    for (const [, field] of line.matchAll(MASKED)) if (!fields.includes(field)) fields.push(field);
  return fields;
}

/** The line with each masked body field read from its variable (the body is single-quoted JSON). */
export function runnableCurl(line) {
  return line.replace(MASKED, (_, field) => `"${field}":"'"$${variableOf(field)}"'"`);
}

/** The `export` line (and a comment for the masked fields) for the lines, with the tenant's `key`. */
export function preamble(key, lines) {
  const masked = maskedFields(lines);
  const values = [
    ['OFKIT_KEY', key.id],
    ['OFKIT_SECRET', key.secret],
    ...masked.map((field) => [variableOf(field), replayValue(field)]),
  ];
  const exported = `export ${values.map(([name, value]) => `${name}=${shellQuote(value)}`).join(' ')}`;
  if (masked.length === 0) return exported;
  const note = `# the log masks ${masked.join(', ')} in bodies: set ${masked.map(variableOf).join(', ')} to the values you sent (these are ones the simulator accepts)`;
  return `${note}\n${exported}`;
}

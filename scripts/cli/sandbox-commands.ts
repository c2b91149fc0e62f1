/**
 * The sandbox commands, each one call of a running simulator's control API (admin.yaml tag `Sandbox`):
 * `ofkit trigger EVENT --link ID` (fireLinkEvent), `ofkit link-status STATUS --link ID` (setLinkStatus),
 * `ofkit create-link FILE` (createDescribedLink).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Command, runGuarded, UsageError } from './command-line.js';
import { callControl, readTarget, refusedBy, TARGET_OPTIONS, type Target } from './control-client.js';
import { didYouMean } from './did-you-mean.js';

const ADMIN = resolve(import.meta.dirname, '../../openapi/generated/admin.json');

/** The events `ofkit trigger` knows: admin.yaml's LinkEventName. */
function linkEvents(): string[] {
  const admin = JSON.parse(readFileSync(ADMIN, 'utf8'));
  return admin.components.schemas.LinkEventName.enum;
}

const TARGET_FLAGS = {
  url: { type: 'string' },
  keys: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface EventRecord {
  id: string;
  status: string;
  payload: { webhook_type: string; webhook_code: string };
  attempts: { status: number | null; error: string | null }[];
}

/** One line per event: what was sent, and how its first delivery went (or that it is only logged). */
function eventLine(event: EventRecord): string {
  const name = `${event.payload.webhook_type} ${event.payload.webhook_code} (event ${event.id})`;
  const [first] = event.attempts;
  if (event.status === 'recorded') return `${name}: logged; no receiver (PUT /_ofkit/webhooks/ sets one)`;
  if (!first) return `${name}: delivery under way (GET /_ofkit/events/ shows its attempts)`;
  const outcome = first.status === null ? first.error : `HTTP ${first.status}`;
  const retry = event.status === 'failed' || event.status === 'delivered' ? '' : '; repeated on the clock';
  return `${name}: ${outcome}${retry}`;
}

/** The events as their first delivery left them (polled for a few seconds; a receiver may be slow). */
async function afterFirstAttempt(
  target: Target,
  link: string,
  events: EventRecord[],
): Promise<EventRecord[]> {
  const ids = new Set(events.map((event) => event.id));
  let latest = events;
  for (let tries = 0; tries < 120; tries += 1) {
    if (latest.every((event) => event.status === 'recorded' || event.attempts.length > 0)) break;
    await new Promise((done) => setTimeout(done, 100));
    const answer = await callControl(target, 'GET', `/_ofkit/events/?link=${encodeURIComponent(link)}`);
    if (answer.status !== 200) break;
    latest = (answer.body as EventRecord[]).filter((event) => ids.has(event.id));
  }
  return latest;
}

const TRIGGER_USAGE = `Usage: ofkit trigger EVENT --link ID [--count N] [--url URL] [--keys id:secret] [--json]

Fires EVENT of the catalogue for link ID now, at the tenant's configured receiver, through the same
delivery path as the simulator's own events (bearer token, repetitions on the tenant's clock). Its data
comes from the link's records; a new_*_available event adds --count new records (default 1); LINK
events set the link's status (none is sent in the sandbox environment); link_deleted deletes the link.

  EVENT                one of: EVENT_NAMES
  --link ID            the link
  --count N            new records of a new_*_available event (1-100)
${TARGET_OPTIONS}
  -h, --help           this text`;

/** The event names wrapped under the EVENT line, as the other options' text is. */
function wrapped(names: readonly string[], indent = 23, width = 105): string {
  const lines: string[] = [];
  let line = '';
  for (const name of names) {
    const next = line ? `${line}, ${name}` : name;
    if (indent + next.length > width && line) {
      lines.push(`${line},`);
      line = name;
    } else line = next;
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

const triggerUsage = () =>
  TRIGGER_USAGE.replace('one of: EVENT_NAMES', `one of:\n${' '.repeat(23)}${wrapped(linkEvents())}`);

export const triggerCommand: Command['run'] = (argv) =>
  runGuarded(
    'trigger',
    async () => {
      const { values, positionals } = parseArgs({
        args: argv,
        allowPositionals: true,
        options: { ...TARGET_FLAGS, link: { type: 'string' }, count: { type: 'string' } },
      });
      if (values.help) return print(triggerUsage());
      const events = linkEvents();
      const [event, extra] = positionals;
      if (event === undefined)
        throw new UsageError('give the EVENT to fire (ofkit trigger --help lists them)');
      if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
      if (!events.includes(event))
        throw new UsageError(`unknown event "${event}"${didYouMean(event, events)}`);
      if (values.link === undefined) throw new UsageError('give the link: --link ID');
      const count = values.count === undefined ? undefined : Number(values.count);
      if (count !== undefined && (!Number.isInteger(count) || count < 1 || count > 100))
        throw new UsageError(`--count wants a whole number from 1 to 100, got "${values.count}"`);
      const target = readTarget(values, process.env);
      const path = `/_ofkit/links/${encodeURIComponent(values.link)}/events/`;
      const answer = await callControl(target, 'POST', path, {
        event,
        ...(count !== undefined && { count }),
      });
      if (answer.status !== 202) refusedBy(answer);
      const fired = answer.body as { link_status: string | null; events: EventRecord[]; note: string | null };
      if (values.json) return print(JSON.stringify(fired, null, 2));
      const settled = await afterFirstAttempt(target, values.link, fired.events);
      const status = fired.link_status === null ? 'deleted' : fired.link_status;
      return print(
        [
          `link ${values.link}: ${status}`,
          ...settled.map(eventLine),
          ...(fired.note ? [fired.note] : []),
        ].join('\n'),
      );
    },
    { usage: TRIGGER_USAGE },
  );

const STATUS_USAGE = `Usage: ofkit link-status STATUS --link ID [--url URL] [--keys id:secret] [--json]

Makes link ID need new credentials (invalid) or an MFA token (token_required) now, as a daily refresh
finds it: a recurrent link's LINK event is sent (invalid_credentials, token_required); a single link and
the sandbox environment get none. PUT /api/links/{id}/ with new credentials brings it back.

  STATUS               invalid or token_required
  --link ID            the link
${TARGET_OPTIONS}
  -h, --help           this text`;

export const linkStatusCommand: Command['run'] = (argv) =>
  runGuarded(
    'link-status',
    async () => {
      const { values, positionals } = parseArgs({
        args: argv,
        allowPositionals: true,
        options: { ...TARGET_FLAGS, link: { type: 'string' } },
      });
      if (values.help) return print(STATUS_USAGE);
      const [status, extra] = positionals;
      const statuses = ['invalid', 'token_required'];
      if (status === undefined || !statuses.includes(status))
        throw new UsageError(`STATUS is invalid or token_required, got "${status ?? ''}"`);
      if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
      if (values.link === undefined) throw new UsageError('give the link: --link ID');
      const target = readTarget(values, process.env);
      const path = `/_ofkit/links/${encodeURIComponent(values.link)}/status/`;
      const answer = await callControl(target, 'PUT', path, { status });
      if (answer.status !== 200) refusedBy(answer);
      const result = answer.body as { link: { status: string }; events: EventRecord[]; note: string | null };
      if (values.json) return print(JSON.stringify(result, null, 2));
      const settled = await afterFirstAttempt(target, values.link, result.events);
      return print(
        [
          `link ${values.link}: ${result.link.status}`,
          ...settled.map(eventLine),
          ...(result.note ? [result.note] : []),
        ].join('\n'),
      );
    },
    { usage: STATUS_USAGE },
  );

const CREATE_USAGE = `Usage: ofkit create-link FILE [--url URL] [--keys id:secret] [--json]

Creates a link from FILE (or - for standard input): JSON describing its institution, accounts and
records, for example
  {"institution":"ofbank_br_retail","access_mode":"recurrent",
   "accounts":[{"name":"Conta","balance":{"current":1520.75},
                "transactions":[{"description":"Padaria","amount":18.5,"type":"OUTFLOW"}]}]}
The simulator fills in every other member (the same seed gives the same records); retrievals of a
described resource answer exactly its records. Prints the link's id, then what it holds.

${TARGET_OPTIONS}
  -h, --help           this text`;

function readDescription(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read ${file} (${(error as { code?: string }).code ?? (error as Error).message})`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON: ${(error as Error).message}`);
  }
}

export const createLinkCommand: Command['run'] = (argv) =>
  runGuarded(
    'create-link',
    async () => {
      const { values, positionals } = parseArgs({
        args: argv,
        allowPositionals: true,
        options: TARGET_FLAGS,
      });
      if (values.help) return print(CREATE_USAGE);
      const [file, extra] = positionals;
      if (file === undefined)
        throw new UsageError('give the description: a JSON FILE, or - for standard input');
      if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
      const description = readDescription(file);
      const target = readTarget(values, process.env);
      const answer = await callControl(target, 'POST', '/_ofkit/links/', description);
      if (answer.status !== 201) refusedBy(answer);
      const created = answer.body as {
        link: { id: string; institution: string };
        records: Record<string, number>;
      };
      if (values.json) return print(JSON.stringify(created, null, 2));
      const held = Object.entries(created.records).map(([name, count]) => `${count} ${name}`);
      return print(
        `${created.link.id}\n${created.link.institution}: ${held.join(', ') || 'no described records'}`,
      );
    },
    { usage: CREATE_USAGE },
  );

function print(text: string): number {
  console.log(text);
  return 0;
}

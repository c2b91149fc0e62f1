/** `ofkit openapi [--format yaml|json] [--out FILE]`: the bundled API document, for teams that generate a client. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Command, runGuarded, UsageError, writeReport } from './command-line.js';

const DOCUMENT = resolve(import.meta.dirname, '../../openapi/generated/openapi.json');

const USAGE = `Usage: ofkit openapi [--format yaml|json] [--out FILE]

Writes the bundled OpenAPI document of the API (one file, only internal $refs) to stdout or FILE, for
openapi-typescript, orval, openapi-generator... (the same document as the package's ofkit/openapi.json).

  --format yaml|json   default json, or the extension of --out
  --out FILE           write FILE (folders created) instead of stdout
  -h, --help           this text`;

function formatOf(format: string | undefined, out: string | undefined): 'yaml' | 'json' {
  const chosen = format ?? (out && /\.ya?ml$/i.test(out) ? 'yaml' : 'json');
  if (chosen !== 'yaml' && chosen !== 'json')
    throw new UsageError(`--format wants yaml or json, got "${chosen}"`);
  return chosen;
}

async function render(format: 'yaml' | 'json'): Promise<string> {
  const text = readFileSync(DOCUMENT, 'utf8');
  if (format === 'json') return text;
  const { stringify } = await import('yaml');
  return stringify(JSON.parse(text), { lineWidth: 0, aliasDuplicateObjects: false });
}

/** The command's run, in main.ts's command table. */
export const openapiCommand: Command['run'] = (argv) =>
  runGuarded(
    'openapi',
    async () => {
      const { values } = parseArgs({
        args: argv,
        strict: true,
        options: {
          format: { type: 'string' },
          out: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      });
      if (values.help) {
        console.log(USAGE);
        return 0;
      }
      const content = await render(formatOf(values.format, values.out));
      if (values.out === undefined) process.stdout.write(content);
      else writeReport(values.out, content);
      return 0;
    },
    { usage: USAGE },
  );

#!/usr/bin/env node
/** `ofkit <command>`: the command table; each command parses its own options and returns its exit code. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from './command-line.js';
import { didYouMean } from './did-you-mean.js';

/** The command table. Each command's module loads on use: `ofkit simulate` never loads the suite, Pact or Prism. */
const COMMANDS: Record<string, Command> = {
  simulate: {
    summary: 'run the stateful simulator (until Ctrl-C)',
    run: async (argv) => (await import('./simulate.js')).simulateCommand(argv),
  },
  exec: {
    summary: 'run a command with the simulator on a free port around it (OFKIT_URL, OFKIT_KEY...)',
    run: async (argv) => (await import('./exec.js')).execCommand(argv),
  },
  check: {
    summary: 'run the conformance suite against a base URL',
    run: async (argv) => (await import('./check.js')).checkCommand(argv),
  },
  pact: {
    summary: 'verify pacts against a base URL, or check pacts against the document',
    run: async (argv) => (await import('./pact.js')).pactCommand(argv),
  },
  golive: {
    summary: 'run your client through every situation and give the go-live checklist with its evidence',
    run: async (argv) => (await import('./golive.js')).goliveCommand(argv),
  },
  record: {
    summary: 'record real traffic through a checking proxy (HAR, redacted) in front of a base URL',
    run: async (argv) => (await import('./record.js')).recordCommand(argv),
  },
  proxy: {
    summary: 'the recording proxy without a recording: check live traffic against the document',
    run: async (argv) => (await import('./proxy.js')).proxyCommand(argv),
  },
  drift: {
    summary: 'report where recorded traffic (HAR files) and the document disagree',
    run: async (argv) => (await import('./drift.js')).driftCommand(argv),
  },
  replay: {
    summary: "turn a recording's records into a simulator tenant's state",
    run: async (argv) => (await import('./replay.js')).replayCommand(argv),
  },
  trigger: {
    summary: "fire an event of the catalogue for a link now, at the tenant's receiver",
    run: async (argv) => (await import('./sandbox-commands.js')).triggerCommand(argv),
  },
  'link-status': {
    summary: 'make a link need new credentials (invalid) or an MFA token (token_required) now',
    run: async (argv) => (await import('./sandbox-commands.js')).linkStatusCommand(argv),
  },
  'create-link': {
    summary: 'create a link from a JSON description of its institution, accounts and records',
    run: async (argv) => (await import('./sandbox-commands.js')).createLinkCommand(argv),
  },
  openapi: {
    summary: 'write the bundled OpenAPI document (JSON or YAML)',
    run: async (argv) => (await import('./openapi.js')).openapiCommand(argv),
  },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(12)} ${summary}`);
  return [
    'Usage: ofkit <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'ofkit <command> --help   the options of a command',
    'ofkit --version          the version',
  ].join('\n');
}

/** The package's version, from its package.json (two levels up from scripts/cli/, or dist/scripts/cli/). */
function version(): string {
  for (const up of ['../..', '../../..']) {
    try {
      const manifest = JSON.parse(readFileSync(resolve(import.meta.dirname, up, 'package.json'), 'utf8'));
      if (manifest.name === 'ofkit') return manifest.version;
    } catch {}
  }
  return 'unknown';
}

const [name, ...argv] = process.argv.slice(2);
if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
  console.log(usage());
} else if (name === '--version' || name === '-v') {
  console.log(version());
} else {
  const entry = COMMANDS[name];
  if (entry === undefined) {
    const hint = didYouMean(name, Object.keys(COMMANDS));
    console.error(`ofkit: unknown command "${name}"${hint} (ofkit --help lists the commands)`);
    process.exitCode = 2;
  } else {
    process.exitCode = await entry.run(argv);
  }
}

#!/usr/bin/env node
/** `ofkit <command>`: parses the command line and hands over to the command's module. */
const COMMANDS: Record<string, { summary: string }> = {
  simulate: { summary: 'run the stateful simulator' },
  check: { summary: 'run the conformance suite against a base URL' },
  proxy: {
    summary: "run Prism's validation proxy with this document in front of a base URL",
  },
  pact: { summary: 'verify pacts against a base URL, or check pacts against the document' },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(10)} ${summary}`);
  return ['Usage: ofkit <command> [options]', '', 'Commands:', ...lines].join('\n');
}

const [command] = process.argv.slice(2);
if (command === undefined || command === '--help' || command === '-h') {
  console.log(usage());
} else if (!(command in COMMANDS)) {
  console.error(`ofkit: unknown command "${command}"\n\n${usage()}`);
  process.exitCode = 2;
} else if (command === 'simulate') {
  const { simulate } = await import('./simulate.js');
  await simulate(process.argv.slice(3));
} else if (command === 'check') {
  const { check } = await import('./check.js');
  process.exitCode = await check(process.argv.slice(3));
} else if (command === 'proxy') {
  const { proxy } = await import('./proxy.js');
  process.exitCode = await proxy(process.argv.slice(3));
} else {
  const { pact } = await import('./pact.js');
  process.exitCode = await pact(process.argv.slice(3));
}

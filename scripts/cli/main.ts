/** `ofkit <command>`: parses the command line and hands over to the command's module. */
const COMMANDS: Record<string, { summary: string; available: boolean }> = {
  simulate: { summary: 'run the stateful simulator', available: true },
  check: { summary: 'run the conformance suite against a base URL', available: false },
  proxy: {
    summary: "run Prism's validation proxy with this document in front of a base URL",
    available: false,
  },
  pact: { summary: 'verify pacts against a base URL, or check pacts against the document', available: true },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(
    ([name, { summary, available }]) =>
      `  ${name.padEnd(10)} ${summary}${available ? '' : ' (not built yet)'}`,
  );
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
} else if (command === 'pact') {
  const { pact } = await import('./pact.js');
  process.exitCode = await pact(process.argv.slice(3));
} else {
  console.error(`ofkit ${command}: not built yet in this version (see the README).`);
  process.exitCode = 2;
}

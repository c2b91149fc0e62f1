/** `ofkit simulate [--port N] [--host H] [--seed S] [--environment production|sandbox] [--keys id:secret ...]` */
import { ConfigError, parseSimulatorConfig } from '../../simulator/src/config/simulator-config.js';
import { createHttpServer, listen } from '../../simulator/src/server/http-adapter.js';
import { createSimulator } from '../../simulator/src/simulator.js';

const MAX_BODY_BYTES = 1_048_576;

export async function simulate(argv: string[]): Promise<void> {
  let config: ReturnType<typeof parseSimulatorConfig>;
  try {
    config = parseSimulatorConfig(argv);
  } catch (error) {
    if (error instanceof ConfigError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`ofkit simulate: ${(error as Error).message}`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
  const simulator = await createSimulator({
    seed: config.seed,
    environment: config.environment,
    keys: config.keys,
    maxBodyBytes: MAX_BODY_BYTES,
  });
  const server = createHttpServer({ handle: simulator.handle, maxBodyBytes: MAX_BODY_BYTES });
  const url = await listen(server, config.port, config.host);
  const keys = config.keys.filter((key) => key.environment === config.environment);
  console.log(
    [
      `ofkit simulator (API 1.223.0, ${config.environment}) listening on ${url}`,
      `seed: ${config.seed}   (replay with --seed ${config.seed})`,
      `keys (tenants): ${keys.map((k) => `${k.secretId}:${k.secretPassword}`).join('  ')}`,
      `try: curl -u ${keys[0]?.secretId}:${keys[0]?.secretPassword} ${url}/api/institutions/`,
      'scenario triggers: username starting with "mfa" -> 428 (resume with token 123456); password "wrong-password" -> 400',
      `control API: ${url}/_ofkit/ (openapi/admin.yaml)`,
      `answered by the Prism fallback (no stateful handler yet): ${simulator.fallbackOperations.length} operations:`,
      `  ${simulator.fallbackOperations.join(', ')}`,
    ].join('\n'),
  );
  const stop = (signal: string) => {
    console.log(`\n${signal}: closing the simulator`);
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

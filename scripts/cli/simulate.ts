/**
 * `ofkit simulate [--port N] [--host H] [--seed S] [--environment production|sandbox] [--keys id:secret ...]
 * [--webhook-url URL [--webhook-bearer TOKEN]]`
 */
import {
  ConfigError,
  parseSimulatorConfig,
  SIMULATE_USAGE,
  type SimulatorConfig,
} from '../../simulator/src/config/simulator-config.js';
import { startSimulator } from '../../simulator/src/start-simulator.js';
import type { AttemptReport } from '../../simulator/src/webhooks/retrying-delivery.js';

function webhookLine(config: SimulatorConfig): string {
  if (config.webhook === null) {
    return 'webhooks: no receiver (events are only logged; PUT /_ofkit/webhooks/ or --webhook-url to deliver)';
  }
  const bearer = config.webhook.bearer_token === null ? '' : ' with a bearer token';
  return `webhooks: every tenant delivers to ${config.webhook.url}${bearer} (event log: GET /_ofkit/events/)`;
}

/** STYLE.md: the start-up output names every operation the stateful layer does not own. */
function fallbackLine(operations: readonly string[]): string {
  if (operations.length === 0) return 'every operation is stateful (none is left to the Prism fallback)';
  return `answered by the Prism fallback (no stateful handler yet): ${operations.length} operations:\n  ${operations.join(', ')}`;
}

function printAttempt({ tenant, payload, number, attempt, status }: AttemptReport): void {
  const outcome = attempt.status ?? attempt.error;
  console.log(
    `webhook ${tenant} ${payload.webhook_type} ${payload.webhook_code} attempt ${number} -> ${outcome} (${attempt.duration_ms} ms): ${status}`,
  );
}

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
  if (config.help) {
    console.log(SIMULATE_USAGE);
    return;
  }
  const { url, keys, simulator, close } = await startSimulator({
    port: config.port,
    host: config.host,
    brokenRules: config.brokenRules,
    seed: config.seed,
    environment: config.environment,
    keys: config.keys,
    webhook: config.webhook ?? undefined,
    onWebhookAttempt: printAttempt,
  });
  console.log(
    [
      `ofkit simulator (API 1.223.0, ${config.environment}) listening on ${url}`,
      `seed: ${config.seed}   (replay with --seed ${config.seed})`,
      `keys (tenants): ${keys.map((k) => `${k.secretId}:${k.secretPassword}`).join('  ')}`,
      `try: curl -u ${keys[0]?.secretId}:${keys[0]?.secretPassword} ${url}/api/institutions/`,
      'scenario triggers: username starting with "mfa" -> 428 (resume with token 123456); password "wrong-password" -> 400',
      `control API: ${url}/_ofkit/ (openapi/admin.yaml)`,
      webhookLine(config),
      fallbackLine(simulator.fallbackOperations),
      ...(config.brokenRules.length > 0 ? [`BROKEN ON PURPOSE: ${config.brokenRules.join(', ')}`] : []),
    ].join('\n'),
  );
  const stop = (signal: string) => {
    console.log(`\n${signal}: closing the simulator`);
    void close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

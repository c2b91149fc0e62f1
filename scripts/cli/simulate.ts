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
import { createHttpServer, listen } from '../../simulator/src/server/http-adapter.js';
import { createSimulator } from '../../simulator/src/simulator.js';
import { startClockTicker } from '../../simulator/src/webhooks/clock-ticker.js';
import type { AttemptReport } from '../../simulator/src/webhooks/retrying-delivery.js';

const MAX_BODY_BYTES = 1_048_576;
/** How often a clock that follows real time runs its due jobs (webhook retries, daily refresh). */
const TICK_MS = 1000;

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
  const simulator = await createSimulator({
    brokenRules: config.brokenRules,
    seed: config.seed,
    environment: config.environment,
    keys: config.keys,
    maxBodyBytes: MAX_BODY_BYTES,
    webhook: config.webhook ?? undefined,
    onWebhookAttempt: printAttempt,
  });
  const stopTicker = startClockTicker(simulator.tenants, TICK_MS);
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
      `dashboard: ${url}/_ofkit/ui/`,
      webhookLine(config),
      fallbackLine(simulator.fallbackOperations),
      ...(config.brokenRules.length > 0 ? [`BROKEN ON PURPOSE: ${config.brokenRules.join(', ')}`] : []),
    ].join('\n'),
  );
  const stop = (signal: string) => {
    console.log(`\n${signal}: closing the simulator`);
    stopTicker();
    void simulator.webhooks.close();
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

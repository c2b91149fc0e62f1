/**
 * How to run a failure again after the run: the command that replays one rule (same seed, same runs, the
 * shrunk case by its fast-check path) against the target as given, and, when the target was a local
 * simulator that may be gone by then (`ofkit exec` stops it), how to bring the same one back first.
 */
import { shellQuote } from '../../../openapi/security/shell-quote.js';

/** A simulator on the loopback interface: `ofkit simulate` brings the same one back on its port. */
export interface LocalSimulator {
  port: string;
  environment: 'production' | 'sandbox';
  /** The simulator's `--seed` when known (`$OFKIT_SEED` of `ofkit exec`), else null. */
  seed: string | null;
}

export interface ReplayContext {
  baseUrl: string;
  seed: number;
  runs: number | null;
  configPath?: string;
  /** Keys came from --keys: the replay passes them as the masked variables. */
  keysFromCommandLine: number;
  /** `--environment` as given on the command line. */
  environment?: 'production' | 'sandbox';
  /** What each key variable the printed commands use holds (key-exports.ts): the one `export` line. */
  keyValues?: Readonly<Record<string, string>>;
  /** The target was a local simulator (the control API on a loopback address). */
  simulator?: LocalSimulator;
}

const KEY_ARGUMENTS = ['--keys "$OFKIT_KEY:$OFKIT_SECRET"', '--keys "$OFKIT_KEY_2:$OFKIT_SECRET_2"'];

export function replayCommand(context: ReplayContext, ruleId: string, path?: string | null): string {
  const parts = [
    'npx ofkit check',
    shellQuote(context.baseUrl),
    '--rules',
    shellQuote(ruleId),
    '--seed',
    String(context.seed),
  ];
  if (context.runs !== null) parts.push('--runs', String(context.runs));
  if (context.configPath) parts.push('--config', shellQuote(context.configPath));
  if (context.environment) parts.push('--environment', context.environment);
  parts.push(...KEY_ARGUMENTS.slice(0, context.keysFromCommandLine));
  if (path) parts.push('--path', shellQuote(path));
  return parts.join(' ');
}

/** The command that starts the same simulator again, on the same port (the replay names that URL). */
export function simulatorCommand(simulator: LocalSimulator): string {
  const seed = simulator.seed === null ? '' : ` --seed ${shellQuote(simulator.seed)}`;
  return `npx ofkit simulate --port ${simulator.port} --environment ${simulator.environment}${seed}`;
}

/** How to get the target back before replaying, or undefined when the target is not a local simulator. */
export function bringBack(context: ReplayContext): string | undefined {
  const { simulator } = context;
  if (!simulator) return undefined;
  const seed =
    simulator.seed === null
      ? ' (add --seed with the seed it printed at start, so that its data are the same)'
      : '';
  return [
    `If the target ${context.baseUrl} (a local server with the control API, such as the simulator of ofkit exec) has stopped, start the same simulator first, in another terminal${seed}:`,
    `  ${simulatorCommand(simulator)}`,
    'then run a replay command below.',
  ].join('\n');
}

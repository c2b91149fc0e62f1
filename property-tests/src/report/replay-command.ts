/** The command that replays one rule's run: same seed, same runs, the shrunk case by its fast-check path. */
import { shellQuote } from './curl-commands.js';

export interface ReplayContext {
  baseUrl: string;
  seed: number;
  runs: number | null;
  configPath?: string;
  /** Keys came from --keys: the replay passes them as the masked variables. */
  keysFromCommandLine: number;
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
  parts.push(...KEY_ARGUMENTS.slice(0, context.keysFromCommandLine));
  if (path) parts.push('--path', shellQuote(path));
  return parts.join(' ');
}

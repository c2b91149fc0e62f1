/**
 * `ofkit proxy <base-url> [--port N] [--host H] [--allow FILE] [--report KIND:PATH]`: the recording
 * proxy of `ofkit record` without a recording (record.ts): every exchange is checked against the
 * document and the rules as it passes, the drift report prints at shutdown.
 */
import type { Command } from './command-line.js';
import { DEFAULT_PROXY_PORT, type RecordRunOptions, record, recordFromCommandLine } from './record.js';

export { DEFAULT_PROXY_PORT };

/** `ofkit proxy ...`; resolves with the exit code once the proxy stops. */
export const proxy = (argv: string[], options: RecordRunOptions = {}) => record(argv, 'proxy', options);

/** The command's run, in main.ts's command table. */
export const proxyCommand: Command['run'] = (argv) => recordFromCommandLine(argv, 'proxy');

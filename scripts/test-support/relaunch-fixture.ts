/**
 * A command that relaunches itself with `--single-threaded-gc` (relaunch.test.ts): the process that
 * runs it prints its pid and flags, then stays until a signal, which it names on its way out.
 * Run with `node --import tsx scripts/test-support/relaunch-fixture.ts`.
 */
import { relaunchWith } from '../cli/relaunch.js';

const code = await relaunchWith(['--single-threaded-gc']);
if (code !== undefined) process.exit(code);
process.once('SIGTERM', () => {
  console.log('stopped by SIGTERM');
  process.exit(7);
});
process.once('SIGINT', () => {
  console.log('stopped by SIGINT');
  process.exit(8);
});
setInterval(() => undefined, 60_000);
// Printed once the signals are handled: the test signals as soon as it reads this.
console.log(JSON.stringify({ pid: process.pid, flags: process.execArgv }));

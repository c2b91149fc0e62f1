/**
 * Vitest global set-up of the lanes that start `ofkit` as a child process (integration, redis): the
 * command line compiled once for the lane (compiled-cli.ts), named to the test files by
 * OFKIT_TEST_LAUNCHER before their workers start. A run that sets OFKIT_TEST_LAUNCHER itself keeps it
 * (OFKIT_TEST_LAUNCHER=scripts/ofkit.js runs the children through the development launcher).
 */
import { compileCli } from './compiled-cli.js';

export default function setup(): () => void {
  if (process.env.OFKIT_TEST_LAUNCHER) return () => {};
  const cli = compileCli();
  process.env.OFKIT_TEST_LAUNCHER = cli.launcher;
  return () => {
    delete process.env.OFKIT_TEST_LAUNCHER;
    cli.remove();
  };
}

/**
 * A value a user gave that ofkit cannot use (a flag, a member of a config file, a key): one line for
 * the user, exit code 2. The one error of every part that reads configuration: the simulator, the
 * conformance suite, the Pact commands.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A command-line value the simulator cannot use: one line for the user, exit code 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Optional peer dependencies: heavy libraries only some commands use (Pact's native verifier). A user
 * who never runs those commands never installs them; a command that needs a missing one says, on one
 * line, which `npm i -D` to run (exit code 2).
 */

/** Each optional peer, with the version ofkit is tested with (package.json's devDependencies). */
export const OPTIONAL_PEERS = {
  '@pact-foundation/pact': '16.5.0',
} as const;

export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/** A command needs an optional peer dependency the project has not installed. */
export class MissingDependencyError extends Error {
  override name = 'MissingDependencyError';
}

/** The one line for a missing peer: what needs it and the install command. */
export function missingLine(peer: OptionalPeer, command: string): string {
  return `${command} needs ${peer}, which is not installed (an optional peer dependency of ofkit): npm i -D ${peer}@${OPTIONAL_PEERS[peer]}`;
}

/**
 * Throws a MissingDependencyError when `peer` cannot be resolved from ofkit's own place in
 * node_modules (where Node will look when the command imports it). `resolve` is for tests.
 */
export function requirePeer(
  peer: OptionalPeer,
  command: string,
  resolve: (specifier: string) => string = (specifier) => import.meta.resolve(specifier),
): void {
  try {
    resolve(peer);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new MissingDependencyError(missingLine(peer, command));
  }
}

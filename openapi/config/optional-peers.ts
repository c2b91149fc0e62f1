/**
 * Optional peer dependencies: heavy libraries only some uses need (Pact's native verifier; Prism's
 * mocker, for `--document`; node-redis, for a Redis store). A user who never needs
 * them never installs them; what needs a missing one says, on one line, which `npm i -D` to run (exit
 * code 2 on the command line).
 */

/** Each optional peer, with the version ofkit is tested with (package.json's devDependencies). */
export const OPTIONAL_PEERS = {
  '@pact-foundation/pact': '16.5.0',
  '@stoplight/prism-core': '5.8.0',
  '@stoplight/prism-http': '5.12.0',
  redis: '5.12.1',
} as const;

export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/** Peers that only work together: installing one means installing all of its group. */
const GROUPS: Partial<Record<OptionalPeer, readonly OptionalPeer[]>> = {
  '@stoplight/prism-core': ['@stoplight/prism-core', '@stoplight/prism-http'],
  '@stoplight/prism-http': ['@stoplight/prism-core', '@stoplight/prism-http'],
};

/** A command needs an optional peer dependency the project has not installed. */
export class MissingDependencyError extends Error {
  override name = 'MissingDependencyError';
}

/** The one line for a missing peer: what needs it and the install command. */
export function missingLine(peer: OptionalPeer, command: string): string {
  const install = (GROUPS[peer] ?? [peer]).map((name) => `${name}@${OPTIONAL_PEERS[name]}`).join(' ');
  return `${command} needs ${peer}, which is not installed (an optional peer dependency of ofkit): npm i -D ${install}`;
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

/**
 * Imports a module that imports optional peers (a dynamic `import()`); a peer missing from the install
 * becomes the one line naming the `npm i -D` to run instead of Node's resolution error.
 */
export async function importWithPeers<T>(
  load: () => Promise<T>,
  peers: readonly OptionalPeer[],
  command: string,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    const missing = peers.find((peer) => String((error as Error).message).includes(`'${peer}'`));
    if (missing === undefined) throw error;
    throw new MissingDependencyError(missingLine(missing, command));
  }
}

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importWithPeers, MissingDependencyError, OPTIONAL_PEERS, requirePeer } from './optional-peers.js';

const manifest = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8'));

describe('optional peer dependencies', () => {
  it('are the optional peers of package.json, each tested at the version the project installs', () => {
    const peers = Object.keys(OPTIONAL_PEERS);
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual([...peers].sort());
    for (const peer of peers) {
      expect(manifest.peerDependenciesMeta[peer]).toEqual({ optional: true });
      expect(manifest.devDependencies[peer]).toBe(OPTIONAL_PEERS[peer as keyof typeof OPTIONAL_PEERS]);
      expect(manifest.dependencies?.[peer]).toBeUndefined();
    }
  });

  it('resolve when installed (this repository installs them for its own tests)', () => {
    expect(() => requirePeer('@pact-foundation/pact', 'ofkit pact verify')).not.toThrow();
  });

  it('missing: one line naming the command and the npm i -D to run', () => {
    const notFound = () => {
      throw Object.assign(new Error("Cannot find package '@pact-foundation/pact'"), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    };
    expect(() => requirePeer('@pact-foundation/pact', 'ofkit pact verify', notFound)).toThrow(
      new MissingDependencyError(
        'ofkit pact verify needs @pact-foundation/pact, which is not installed (an optional peer dependency of ofkit): npm i -D @pact-foundation/pact@16.5.0',
      ),
    );
  });

  it("Prism's two packages are named together; a module whose peer is missing becomes that one line", async () => {
    const missing = (name: string) => async () => {
      throw Object.assign(new Error(`Cannot find package '${name}' imported from /x.js`), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    };
    const prism = ['@stoplight/prism-core', '@stoplight/prism-http'] as const;
    await expect(importWithPeers(missing('@stoplight/prism-http'), prism, '--document')).rejects.toThrow(
      new MissingDependencyError(
        '--document needs @stoplight/prism-http, which is not installed (an optional peer dependency of ofkit): npm i -D @stoplight/prism-core@5.8.0 @stoplight/prism-http@5.12.0',
      ),
    );
    // Another missing package is not the peer's to explain: Node's error goes on unchanged.
    await expect(importWithPeers(missing('left-pad'), prism, '--document')).rejects.toThrow("'left-pad'");
    await expect(importWithPeers(async () => 7, ['redis'], 'x')).resolves.toBe(7);
  });
});

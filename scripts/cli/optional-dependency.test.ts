import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MissingDependencyError, OPTIONAL_PEERS, requirePeer } from './optional-dependency.js';

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
});

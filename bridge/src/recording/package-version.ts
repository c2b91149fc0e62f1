/** The package's version, for the HAR `creator` (package.json two levels above bridge/src/, or dist/bridge/src/). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export function packageVersion(): string {
  for (const up of ['../../..', '../../../..']) {
    try {
      const manifest = JSON.parse(readFileSync(resolve(import.meta.dirname, up, 'package.json'), 'utf8'));
      if (manifest.name === 'ofkit') return String(manifest.version);
    } catch {}
  }
  return 'dev';
}

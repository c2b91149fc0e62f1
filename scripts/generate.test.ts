import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const project = resolve(import.meta.dirname, '..');
const tsx = join(project, 'node_modules/tsx/dist/cli.mjs');

function generateCheck(root: string): { status: number; output: string } {
  try {
    const output = execFileSync(
      process.execPath,
      [tsx, join(project, 'scripts/generate.ts'), '--check', '--root', root],
      {
        stdio: 'pipe',
        encoding: 'utf8',
      },
    );
    return { status: 0, output };
  } catch (error) {
    const failed = error as { status: number; stderr: string };
    return { status: failed.status, output: failed.stderr };
  }
}

describe('npm run generate -- --check', () => {
  it('passes on the committed files and fails when the YAML changed without regenerating', () => {
    const root = mkdtempSync(join(tmpdir(), 'ofkit-drift-'));
    cpSync(join(project, 'openapi'), join(root, 'openapi'), { recursive: true });
    expect(generateCheck(root).status).toBe(0);
    const links = join(root, 'openapi/paths/links.yaml');
    writeFileSync(
      links,
      readFileSync(links, 'utf8').replace('summary: List links', 'summary: List every link'),
    );
    const drifted = generateCheck(root);
    expect(drifted.status).toBe(1);
    expect(drifted.output).toContain('openapi/generated/openapi.json');
  }, 60_000);
});

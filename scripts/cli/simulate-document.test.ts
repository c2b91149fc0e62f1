/**
 * `ofkit simulate --document FILE`: the start-up lines name the operations of the user's document that
 * the bundled one lacks (Prism answers them); a document that cannot be read is one line and exit 2.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseSimulatorConfig } from '../../simulator/src/config/simulator-config.js';
import { simulateCommand, startFromConfig } from './simulate.js';

const folder = mkdtempSync(join(tmpdir(), 'ofkit-simulate-document-'));

function newerDocument(): string {
  const path = join(folder, 'newer.json');
  const example = { gadgets: ['one'] };
  const answer = {
    description: 'gadgets',
    content: { 'application/json': { schema: { type: 'object' }, example } },
  };
  writeFileSync(
    path,
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'newer', version: '2' },
      paths: {
        '/api/gadgets/': { get: { operationId: 'listGadgets', responses: { '200': answer } } },
        '/api/links/': { get: { operationId: 'listLinks', responses: { '200': answer } } },
      },
    }),
  );
  return path;
}

describe('ofkit simulate --document', () => {
  it('lists the operations Prism answers from the document, and serves them', async () => {
    const file = newerDocument();
    const lines: string[] = [];
    const config = parseSimulatorConfig(['--port', '0', '--seed', 's', '--document', file]);
    const started = await startFromConfig(config, (line) => lines.push(line));
    try {
      const text = lines.join('\n');
      expect(text).toContain('every operation of the bundled document is stateful');
      expect(text).toContain(
        `--document ${file}: 1 operations the bundled document lacks, answered by Prism from its examples (no state, no rules):\n  listGadgets`,
      );
      const [key] = started.keys;
      const answer = await fetch(`${started.url}/api/gadgets/`, {
        headers: {
          authorization: `Basic ${Buffer.from(`${key?.secretId}:${key?.secretPassword}`).toString('base64')}`,
        },
      });
      expect({ status: answer.status, body: await answer.json() }).toEqual({
        status: 200,
        body: { gadgets: ['one'] },
      });
    } finally {
      await started.close();
    }
  });

  it('a document it cannot read is one line and exit code 2', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const missing = join(folder, 'nowhere.yaml');
      expect(await simulateCommand(['--port', '0', '--document', missing])).toBe(2);
      expect(errors.mock.calls).toHaveLength(1);
      expect(errors.mock.calls[0]?.[0]).toBe(
        `ofkit simulate: --document ${missing}: cannot read it (ENOENT)`,
      );
    } finally {
      errors.mockRestore();
    }
  });
});

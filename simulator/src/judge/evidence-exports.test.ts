/**
 * The judge's evidence runs as pasted: the summary prints one `export` line naming every variable its
 * curl lines use, and that line followed by a curl line, run in bash against the simulator, sends the
 * logged request again. Secrets that are not public never appear (CLIENT-NO-SECRETS).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEYS } from '../config/simulator-config.js';
import { type StartedSimulator, startSimulator } from '../start-simulator.js';
import type { JudgeReport } from './client-rules.js';
import { evidenceExport } from './evidence-exports.js';
import { judgeAll } from './judge-all.js';
import { consoleSummary } from './report-formats.js';

const run = promisify(execFile);
const publicSecret = (id: string) => DEFAULT_KEYS.find((key) => key.secretId === id)?.secretPassword;

describe("the judge's evidence", () => {
  let started: StartedSimulator;
  beforeAll(async () => {
    started = await startSimulator({ tickMs: 0 });
  });
  afterAll(() => started?.close());

  it('runs as pasted after the export line it prints (CLIENT-NO-RETRY-4XX sent twice)', async () => {
    const [key] = started.keys;
    const authorization = `Basic ${Buffer.from(`${key?.secretId}:${key?.secretPassword}`).toString('base64')}`;
    const refused = { institution: 'ofbank_br_retail', username: '76109277673' };
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${started.url}/api/links/`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(refused),
      });
      expect(answer.status).toBe(400);
    }
    const reports = await judgeAll(started.simulator);
    const summary = consoleSummary(reports, { publicSecret, webhookUrl: () => undefined });
    const lines = summary.split('\n').map((line) => line.trim());
    const exported = lines.find((line) => line.startsWith('export '));
    expect(exported).toBe(`export OFKIT_KEY=${key?.secretId} OFKIT_SECRET=${key?.secretPassword}`);
    const curl = lines.find((line) => line.startsWith('curl ') && line.includes('/api/links/'));
    expect(curl).toBeDefined();
    // --norc: bash reads ~/.bashrc when its stdin is a socket (as execFile's is) and SHLVL < 2.
    const { stdout } = await run('bash', ['--norc', '-euc', `${exported}\n${curl} -s`]);
    const body = JSON.parse(stdout) as { code: string; field?: string }[];
    expect(body[0]).toMatchObject({ code: 'required', field: 'password' });
  });

  it('names only the variables used; a private secret and the bearer token are placeholders', () => {
    const report: JudgeReport = {
      tenant: 'team-key',
      timing: 'real',
      requests: 1,
      deliveries: 1,
      dropped: 0,
      verdicts: [
        {
          rule: 'CLIENT-WEBHOOK-ACK',
          title: 't',
          section: 's',
          verdict: 'violated',
          summary: 'x',
          evidence: [`curl -X POST "$WEBHOOK_URL" -H "authorization: Bearer $WEBHOOK_BEARER" -d '{}'`],
        },
        {
          rule: 'CLIENT-NO-RETRY-4XX',
          title: 't',
          section: 's',
          verdict: 'followed',
          summary: 'x',
          evidence: ['curl -u $OFKIT_KEY:$OFKIT_SECRET -X GET x'],
        },
      ],
    };
    const sources = { publicSecret, webhookUrl: () => 'http://127.0.0.1:9/hooks' };
    expect(evidenceExport(report, sources)).toBe(
      "export WEBHOOK_URL=http://127.0.0.1:9/hooks WEBHOOK_BEARER='<your webhook bearer token>'",
    );
    const keyOnly = { ...report, verdicts: [{ ...report.verdicts[1]!, verdict: 'violated' as const }] };
    expect(evidenceExport(keyOnly, sources)).toBe(
      "export OFKIT_KEY=team-key OFKIT_SECRET='<the secret of key team-key>'",
    );
    expect(evidenceExport({ ...report, verdicts: [] }, sources)).toBeUndefined();
  });
});

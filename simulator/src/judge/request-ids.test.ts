/**
 * CLIENT-REQUEST-IDS-LOGGED, judged through the judge's door on a real log and a client's captured
 * output: a careless client (prints nothing) gets a warning, a careful one (prints each failed request's
 * `request_id`) follows it; ofkit's own lines do not count. A warning shows in every report form and
 * does not fail the gate.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type JudgeBench, KEY, startJudgeBench } from '../../test-support/judge-harness.js';
import { consoleSummary, type JudgeReport, judge } from './judge.js';
import { judgeExitCode } from './judge-all.js';
import { junitReport } from './report-formats.js';

let bench: JudgeBench;
beforeAll(async () => {
  bench = await startJudgeBench('request-ids-seed');
}, 60_000);
afterAll(() => bench.close());
beforeEach(async () => {
  expect((await bench.control('POST', '/_ofkit/reset/')).status).toBe(204);
});

const RULE = 'CLIENT-REQUEST-IDS-LOGGED';
const fault = (operation_id: string, status: number, count: number) =>
  bench.control('POST', '/_ofkit/faults/', { operation_id, status, count });

/** The tenant's report with `clientOutput` as the client's captured output. */
async function reportWith(clientOutput: string | undefined): Promise<JudgeReport> {
  return judge(KEY.secretId, { ...(await bench.sinceLastReset()), clientOutput }, 'order-only');
}
const verdictWith = async (output: string | undefined) =>
  (await reportWith(output)).verdicts.find((v) => v.rule === RULE)!;

/** Failures a client leaves behind: a 400, a 404 and a 500 it never retried. Their request ids. */
async function leaveFailures(): Promise<string[]> {
  const ids: string[] = [];
  ids.push((await bench.api('GET', '/api/transactions/')).body[0].request_id);
  ids.push((await bench.api('GET', '/api/links/00000000-0000-4000-8000-000000000000/')).body[0].request_id);
  await fault('listInstitutions', 500, 1);
  ids.push((await bench.api('GET', '/api/institutions/')).body[0].request_id);
  return ids;
}

describe(RULE, () => {
  it('warning: a client that prints nothing of its failures (with risks, not a violation)', async () => {
    await leaveFailures();
    const verdict = await verdictWith('synced 0 links\n');
    expect(verdict.verdict).toBe('warning');
    expect(verdict.summary).toBe("3 of 3 failed request(s) without their request_id in the client's output.");
    expect(verdict.evidence[0]).toContain('GET');
  });
  it('followed: a client that logs the request_id of each failure it leaves behind', async () => {
    const ids = await leaveFailures();
    const output = ids.map((id) => `ERROR request failed (request_id=${id}); giving up`).join('\n');
    expect((await verdictWith(output)).verdict).toBe('followed');
  });
  it("ofkit's own lines do not count, and without an output the rule is left to golive", async () => {
    const ids = await leaveFailures();
    const own = [
      `client judge, tenant ${KEY.secretId}: ${ids[0]}`,
      `ofkit exec: ${ids[1]}`,
      `        curl -u $OFKIT_KEY:$OFKIT_SECRET -X GET 'http://x/${ids[2]}'`,
    ].join('\n');
    expect((await verdictWith(own)).summary).toContain('3 of 3');
    expect((await verdictWith(undefined)).verdict).toBe('not_exercised');
  });
  it('not expected: a 500 that a retry recovered, a 428 and a 409', async () => {
    await fault('listInstitutions', 500, 1);
    await bench.api('GET', '/api/institutions/');
    expect((await bench.api('GET', '/api/institutions/')).status).toBe(200);
    await bench.control('POST', '/_ofkit/scenarios/', { scenario: 'institution_requires_token', count: 1 });
    const body = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };
    expect((await bench.api('POST', '/api/links/', body)).status).toBe(428);
    const link = (await bench.api('POST', '/api/links/', { ...body, username: '76109277674' })).body.id;
    await bench.api('POST', `/api/links/${link}/refresh/`);
    expect((await bench.api('POST', `/api/links/${link}/refresh/`)).status).toBe(409);
    expect((await verdictWith('')).verdict).toBe('not_exercised');
  });
  it('a warning shows in the console, JUnit and Markdown forms, and passes the gate', async () => {
    await leaveFailures();
    const report = await reportWith('');
    expect(consoleSummary([report])).toMatch(/WARN CLIENT-REQUEST-IDS-LOGGED +3 of 3 .*\n +curl/);
    const junit = junitReport([report]);
    const testCase = junit.slice(junit.indexOf(`name="${RULE}`));
    expect(testCase.slice(0, testCase.indexOf('</testcase>'))).toContain('<system-out>WARNING: 3 of 3');
    expect(junitReport([report], 'md')).toMatch(new RegExp(`\\| ${RULE} .* \\| warning \\| 3 of 3`));
    const withoutViolation = { ...report, verdicts: report.verdicts.filter((v) => v.verdict !== 'violated') };
    expect(judgeExitCode([withoutViolation])).toBe(0);
  });
});

/**
 * The client judge: the simulator's log of each tenant's requests and webhook deliveries, judged against
 * the client rules (CLIENT-*). `judgeAll` and `judgeExitCode` are what a CLI gate needs; `finishJudge`
 * and `applyStartSwitches` are what `ofkit simulate` does with the judge flags (`ofkit exec --judge`
 * can do the same: parse the flags with `parseSimulatorConfig`, pass `judgeProbes` to the simulator,
 * `applyStartSwitches` at start, `finishJudge` when the command ends, exit with `judgeExitCode`).
 */
export type { ClientRuleId, RuleVerdict, Timing, Verdict } from './client-rules.js';
export { CLIENT_RULES } from './client-rules.js';
export { judgeAll, judgeExitCode } from './judge-all.js';
export { applyStartSwitches, finishJudge, type JudgeOutcome } from './judge-cli.js';
export { createJudgeLog, type JudgeLog } from './judge-log.js';
export { type AutomaticProbes, createJudgeObserver, type JudgeObserver } from './judge-observer.js';
export type { JudgeReport } from './judge-tenant.js';
export { judgeTenant } from './judge-tenant.js';
export { consoleSummary, jsonReport, junitReport } from './report-formats.js';
export { MAX_DELIVERIES, MAX_REQUESTS, type RequestLogEntry } from './request-log.js';

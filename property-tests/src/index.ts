/** The conformance suite's public surface: what `ofkit check` and the project's tests use. */
export { loadApiDocument } from '../../openapi/document/api-document.js';
export type { Exchange } from './http/http-client.js';
export { renderConsoleReport } from './report/console-report.js';
export { renderJson } from './report/json-report.js';
export { renderJunit } from './report/junit-report.js';
export type { ReplayContext } from './report/replay-command.js';
export { allRules } from './rules/index.js';
export type { Rule, RuleDefinition } from './rules/rule.js';
export { defineRule, skip, skipForEnvironment } from './rules/rule.js';
export { createProgress } from './runner/progress.js';
export type { RuleResult, RuleStatus } from './runner/run-rule.js';
export type { SuiteEvent, SuiteResult } from './runner/run-suite.js';
export { DEFAULT_RUNS, runSuite } from './runner/run-suite.js';
export { ruleInScope, scopedOperations } from './runner/scope.js';
export { freshSeed, parseSeed } from './runner/seed.js';
export { selectRules } from './runner/select-rules.js';
export type { TargetConfig } from './target/target-config.js';
export { ConfigError, parseTargetConfig } from './target/target-config.js';

/**
 * `ofkit/golive`: go-live readiness. `underEverySituation` runs one test body under every situation of
 * the catalogue (a fresh simulator in process each time, the judge's verdicts, whether the client met
 * it); the rest is what `ofkit golive` is made of: the catalogue, the runs, the checklist's verdicts and
 * the evidence bundle.
 */

export type { BundleVersions, GoliveBundle } from './bundle/bundle-data.js';
export { exitCodeOf, goliveBundle, VERDICT_WORDS } from './bundle/bundle-data.js';
export { bundleHtml } from './bundle/bundle-html.js';
export { bundleJunit } from './bundle/bundle-junit.js';
export { shellLine, shellWord } from './bundle/shell-words.js';
export { BUNDLE_FILES, BundleError, readBundle, writeBundle } from './bundle/write-bundle.js';
export type {
  Catalogue,
  ChecklistItem,
  FaultConfig,
  MetCondition,
  ScenarioConfig,
  Situation,
  SituationConfig,
} from './catalogue/catalogue-types.js';
export { CatalogueError, readCatalogue } from './catalogue/read-catalogue.js';
export type { GoliveOutcome, GoliveRunOptions } from './golive-run.js';
export { catalogueConfigs, chooseSituations, runGolive, UnknownSituationError } from './golive-run.js';
export type {
  EverySituationOptions,
  SituationContext,
  TestFunction,
} from './in-tests/under-every-situation.js';
export { underEverySituation } from './in-tests/under-every-situation.js';
export { LIFE_ENDED_VARIABLE } from './run/life-player.js';
export type { ClientOutcome, ClientRunner, SituationRun } from './run/run-situation.js';
export { CommandNotRun, SITUATION_VARIABLES } from './run/run-situation.js';
export type { PlannedSituation } from './run/run-situations.js';
export type { Finding, ItemResult, ItemVerdict } from './verdicts/item-verdicts.js';
export { itemVerdicts } from './verdicts/item-verdicts.js';
export type { NotApplicable } from './verdicts/not-applicable.js';
export { NotApplicableError, notApplicableText, parseNotApplicable } from './verdicts/not-applicable.js';
export type { ItemReproduction } from './verify/verify-bundle.js';
export { bundlePlan, reproductions } from './verify/verify-bundle.js';

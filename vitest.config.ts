/**
 * Every test lane as a vitest project (scripts/lanes/lanes.ts): `vitest run --project unit` runs one,
 * `npm test` runs them all through scripts/lanes/run-lanes.ts, which prints each lane's time.
 */
import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { claimedElsewhere, LANES, type LaneProject } from './scripts/lanes/lanes.js';

const cores = availableParallelism();

function project(lane: (typeof LANES)[number], spec: LaneProject): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name: spec.name,
      include: [...spec.include],
      exclude: ['**/node_modules/**', ...claimedElsewhere(lane.name)],
      maxWorkers: spec.serial ? 1 : Math.max(1, Math.round(cores * spec.workersPerCore)),
      ...(spec.serial && { fileParallelism: false }),
      sequence: { groupOrder: spec.order },
      ...(spec.shareModules && { isolate: false }),
      ...(spec.testTimeout !== undefined && { testTimeout: spec.testTimeout }),
      ...(spec.hookTimeout !== undefined && { hookTimeout: spec.hookTimeout }),
      ...(spec.globalSetup && { globalSetup: [...spec.globalSetup] }),
    },
  };
}

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    // Tests never depend on wall-clock timing; the virtual clock drives every time-based rule.
    fakeTimers: { toFake: [] },
    projects: LANES.flatMap((lane) => lane.projects.map((spec) => project(lane, spec))),
  },
});

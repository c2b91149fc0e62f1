/**
 * The test lanes, by cost: each test file belongs to exactly one lane (`lanes.test.ts` fails on a file
 * no lane claims, or that two claim), each lane runs alone (`npm run test:<lane>`), and `npm test` runs
 * them all (`run-lanes.ts`), two at a time. A lane is one or more vitest projects of `vitest.config.ts`;
 * the packaged test is a script of its own. `workersPerCore` is how many test files a lane runs at once
 * per core (vitest's own default on a 2-core machine is a single file at a time).
 */

export type LaneName = 'unit' | 'integration' | 'matrices' | 'redis' | 'browser' | 'generators' | 'package';

/** One vitest project of a lane. */
export interface LaneProject {
  /** The project's name (`vitest run --project NAME`). */
  name: string;
  include: readonly string[];
  /** Test files run at once, per available core (at least one file). */
  workersPerCore: number;
  /**
   * Vitest's `sequence.groupOrder`, unique per project: under one `vitest run` the projects run one after
   * another in this order (vitest runs projects of one order together only when their workers agree), so
   * the pacts are written before they are verified.
   */
  order: number;
  /** Vitest's per-test time-out for the project, where it differs from the default. */
  testTimeout?: number;
  hookTimeout?: number;
  /** One file at a time whatever the cores (files that share one output file). */
  serial?: boolean;
  /** Test files share one module graph per worker (no re-import of the document per file). */
  shareModules?: boolean;
  globalSetup?: readonly string[];
}

export interface Lane {
  name: LaneName;
  /** What the lane holds, for `npm run test:lanes -- --list` and CONTRIBUTING.md. */
  holds: string;
  projects: readonly LaneProject[];
  /** A command instead of vitest projects (the packaged test). */
  command?: readonly string[];
  /** Test files the command runs itself (so that the claim check knows them). */
  claims?: readonly string[];
}

/** The command line compiled once for a lane whose tests start `ofkit` as a child process. */
const COMPILED_CLI = 'scripts/test-support/compiled-cli-lane.ts';

/** Files that start a browser. */
const BROWSER = ['simulator/src/dashboard/dashboard.browser.test.ts', 'bridge/tests/chromium-har.test.ts'];

/** Files that need redis-server (skipped, saying so, without it; failed in CI). */
const REDIS = [
  'simulator/src/store/redis-store.test.ts',
  'simulator/src/store/redis-cluster-store.test.ts',
  'bench/load/start-redis-servers.test.ts',
  'tests/replicas/**/*.test.ts',
];

/** The suite against many simulators: the teeth, the bridge's break matrix, the whole-suite runs. */
const MATRICES = [
  'property-tests/tests/teeth.test.ts',
  'property-tests/tests/teeth/**/*.test.ts',
  'property-tests/tests/suite-against-*.test.ts',
  'bridge/tests/break-matrix.test.ts',
];

/** Client generators and the document's own generator, each a child process over the whole document. */
const GENERATORS = ['scripts/client-generators.test.ts', 'scripts/generate.test.ts'];

/** Servers on loopback and child processes: the CLI, the bridge, the suite against one simulator. */
const INTEGRATION = [
  'property-tests/tests/**/*.test.ts',
  'property-tests/src/http/http-client.test.ts',
  'bridge/tests/**/*.test.ts',
  'bridge/src/proxy/upstream.test.ts',
  'bridge/src/recording/thread-priority.test.ts',
  'tests/hardening/**/*.test.ts',
  'tests/security/**/*.test.ts',
  'tests/official-sdk/**/*.test.ts',
  'tests/house/documented-invocations.test.ts',
  'golive/tests/**/*.test.ts',
  'bench/servers/child-process.test.ts',
  'scripts/cli/command-line.test.ts',
  'scripts/cli/exec-signals.test.ts',
  'scripts/cli/exec.test.ts',
  'scripts/cli/main.test.ts',
  'scripts/cli/process-tree.test.ts',
  'scripts/cli/relaunch.test.ts',
  'scripts/cli/sandbox-commands.test.ts',
  'scripts/cli/simulate.test.ts',
  'scripts/cli/simulate-document.test.ts',
  'openapi/checks/document-checks.test.ts',
  'openapi/security/shell-quote.test.ts',
  'openapi/client/create-client.test.ts',
  'simulator/src/start-simulator.test.ts',
  'simulator/src/broken-rules/broken-rules-elsewhere.test.ts',
  'simulator/src/fallback/document-overlay.test.ts',
  'simulator/src/judge/evidence-exports.test.ts',
  'simulator/src/judge/judge-off.test.ts',
  'simulator/src/webhooks/webhook-delivery.test.ts',
  'simulator/src/webhooks/webhook-retry.test.ts',
  'simulator/src/dashboard/curl-lines.test.ts',
  'simulator/src/dashboard/observers.test.ts',
  'bench/load/run-parallel-load.test.ts',
  'bench/servers/bare-server.test.ts',
];

/** Everything else of `src/` and the tools: pure and in-process tests (the edit loop's lane). */
const UNIT = [
  'openapi/**/*.test.ts',
  'simulator/**/*.test.ts',
  'property-tests/src/**/*.test.ts',
  'bridge/src/**/*.test.ts',
  'golive/src/**/*.test.ts',
  'scripts/**/*.test.ts',
  'bench/**/*.test.ts',
  'tests/house/**/*.test.ts',
];

export const LANES: readonly Lane[] = [
  {
    name: 'unit',
    holds:
      'pure and in-process tests: the document, the simulator in process, the suite, the bridge, the CLI',
    projects: [{ name: 'unit', include: UNIT, order: 0, workersPerCore: 1, shareModules: true }],
  },
  {
    name: 'integration',
    holds:
      'servers on loopback and child processes: the CLI, the bridge, the suite against a simulator; Pact',
    projects: [
      {
        name: 'integration',
        include: INTEGRATION,
        order: 1,
        workersPerCore: 1,
        shareModules: true,
        // Servers and child processes beside another lane on two cores: a test of 13 s alone (the fuzzing
        // of every operation) came near the default 20 s under load.
        testTimeout: 60_000,
        hookTimeout: 60_000,
        globalSetup: [COMPILED_CLI],
      },
      {
        name: 'pact-consumer',
        include: ['contracts/consumer/**/*.pact.test.ts'],
        order: 2,
        globalSetup: ['contracts/pact-run.ts'],
        // Every file writes into the same pact file: one file at a time.
        serial: true,
        workersPerCore: 1,
        testTimeout: 30_000,
      },
      {
        // The Pact Verifier runs in process through its native library: one verification at a time.
        name: 'pact-provider',
        include: ['contracts/provider/**/*.verify.test.ts'],
        order: 3,
        globalSetup: ['contracts/pact-run.ts'],
        serial: true,
        workersPerCore: 1,
        testTimeout: 120_000,
        hookTimeout: 60_000,
      },
      {
        name: 'pact-check-spec',
        include: ['contracts/check-spec/**/*.check.test.ts'],
        order: 4,
        globalSetup: ['contracts/pact-run.ts'],
        workersPerCore: 1,
        testTimeout: 30_000,
      },
    ],
  },
  {
    name: 'matrices',
    holds: 'the teeth matrix, the bridge break matrix, the whole suite against the simulator',
    projects: [{ name: 'matrices', include: MATRICES, order: 5, workersPerCore: 1, shareModules: true }],
  },
  {
    name: 'redis',
    holds: 'the Redis store, a Redis Cluster, replicas on Redis (redis-server)',
    projects: [
      {
        name: 'redis',
        include: REDIS,
        order: 6,
        // One Redis Cluster for the lane; its failover test needs the cluster to itself: a file at a time.
        globalSetup: ['simulator/test-support/redis-lane.ts', COMPILED_CLI],
        serial: true,
        workersPerCore: 1,
        shareModules: true,
      },
    ],
  },
  {
    name: 'browser',
    holds: 'the dashboard and a HAR recorded from Chromium (/usr/bin/chromium)',
    projects: [
      {
        name: 'browser',
        include: BROWSER,
        order: 7,
        // One Chromium for the lane; each file opens its own contexts.
        globalSetup: ['simulator/test-support/browser-lane.ts'],
        workersPerCore: 1,
        shareModules: true,
      },
    ],
  },
  {
    name: 'generators',
    holds: 'the five client generators and the document generator on the bundled document',
    projects: [{ name: 'generators', include: GENERATORS, order: 8, workersPerCore: 1 }],
  },
  {
    name: 'package',
    holds: 'the packed tarball installed in a temporary project: commands, imports and every doc block',
    projects: [],
    command: ['node', 'scripts/test-package.mjs'],
    claims: ['scripts/package-test/package-accounts.package-test.ts'],
  },
];

/** Globs of every lane other than `lane`, which `lane`'s broader globs leave to them. */
export function claimedElsewhere(lane: LaneName): string[] {
  const order: LaneName[] = ['browser', 'redis', 'matrices', 'generators', 'integration', 'unit'];
  const before = order.slice(0, order.indexOf(lane));
  return LANES.filter((other) => before.includes(other.name)).flatMap((other) =>
    other.projects.flatMap((project) => project.include),
  );
}

export function laneNamed(name: string): Lane | undefined {
  return LANES.find((lane) => lane.name === name);
}

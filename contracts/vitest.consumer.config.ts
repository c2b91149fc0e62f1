/** Pact consumer run: writes contracts/pacts/. Runs before the provider and check-spec runs. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['contracts/consumer/**/*.pact.test.ts'],
    globalSetup: ['contracts/consumer/fresh-pact-file.ts'],
    environment: 'node',
    // Every file writes into the same pact file: one file at a time.
    fileParallelism: false,
    testTimeout: 30_000,
  },
});

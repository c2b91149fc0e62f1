/** Pact check-spec run: the pacts of contracts/pacts, and forbidden ones, against the OpenAPI document. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['contracts/check-spec/**/*.check.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
  },
});

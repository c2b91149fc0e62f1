/**
 * Pact provider run: verifies contracts/pacts (written by the consumer run, which goes first) against a
 * simulator started on 127.0.0.1 port 0, plus the verification's negative tests.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['contracts/provider/**/*.verify.test.ts'],
    environment: 'node',
    // The Pact Verifier runs in process through its native library: one verification at a time.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});

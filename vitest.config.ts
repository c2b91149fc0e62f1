import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'openapi/**/*.test.ts',
      'simulator/**/*.test.ts',
      'scripts/**/*.test.ts',
      'property-tests/**/*.test.ts',
      'bench/**/*.test.ts',
      'tests/**/*.test.ts',
      'bridge/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 20_000,
    // Tests never depend on wall-clock timing; the virtual clock drives every time-based rule.
    fakeTimers: { toFake: [] },
  },
});

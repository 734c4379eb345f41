import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests that start real processes or a browser read this to find the compiled service.
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});

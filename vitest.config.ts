import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'core/**/*.test.ts',
      'bench/**/*.test.ts',
      'main/**/*.test.ts',
      'preload/**/*.test.ts',
      'renderer/src/**/*.test.ts',
      'renderer/src/**/*.test.tsx',
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The run's PostgreSQL server, started by the first test that needs it (core/test-support/postgres.ts).
    globalSetup: ['core/test-support/postgres-global-setup.ts'],
  },
});

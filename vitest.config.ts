import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { englishCatalogSplit } from './scripts/english-split';
import { LANDING_ENTRIES } from './vite.config';

export default defineConfig({
  plugins: [react(), englishCatalogSplit(LANDING_ENTRIES)],
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    environment: 'node',
    setupFiles: ['tests/setup.ts'],
    // PostgreSQL runs: drops the databases test files are done with (tests/support/pg-copies.ts).
    globalSetup: ['tests/pg-drop-copies.global.ts'],
    testTimeout: 20000,
  },
});

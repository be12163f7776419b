import { defineConfig } from '@playwright/test';

/**
 * Browser tests in Debian's Chromium (/usr/bin/chromium; never a downloaded browser). The server
 * runs in demo mode on its own port and a fresh database file for every run.
 */
const port = Number(process.env.E2E_PORT ?? 3199);
/** One database file per port, so two runs on different ports never share (or delete) each other's. */
const database = `test-results/e2e-${port}.sqlite`;

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  use: {
    baseURL: `http://localhost:${port}`,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: `rm -f ${database}* && tsx server/main.ts`,
    url: `http://localhost:${port}/auth/config`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { PORT: String(port), DATABASE_PATH: database, SHOPIFY_API_SECRET: '' },
  },
});

/**
 * `npm run secrets:seal`: seals every write-only document value still stored in plain text (values
 * saved before sealing) and moves every sealed value and every shop access token onto the first
 * key of `ACCESS_TOKEN_KEYS` (server/services/sealed-secrets.ts, server/platform/access-tokens.ts).
 * Run it after upgrading, and at the end of a key rotation before the old key leaves the list.
 * Reads the same environment as the server (`DATABASE_PATH` / `DATABASE_URL`, `SHOPIFY_API_SECRET`,
 * `ACCESS_TOKEN_KEYS`). Prints what it rewrote; exits 1 on a failure.
 */
import { join } from 'node:path';
import { loadRegistry } from '../engine/registry';
import { configFromEnv } from '../server/config';
import { openDatabase } from '../server/db/database';
import { rotateAccessTokens } from '../server/platform/access-tokens';
import { sealStoredSecrets } from '../server/services/sealed-secrets';

async function main(): Promise<number> {
  const config = configFromEnv();
  const registry = loadRegistry(join(import.meta.dirname, '..', 'schemas'), { compile: 'lazy' });
  const db = await openDatabase(config.databasePath);
  try {
    const documents = await sealStoredSecrets({ db, registry, auth: config.auth });
    const tokens = await rotateAccessTokens({ db, auth: config.auth });
    console.log(`secrets: ${documents} document and version rows sealed or moved to the first key`);
    console.log(`access tokens: ${tokens.rotated} moved to the first key, ${tokens.unreadable} no configured key opens`);
    return tokens.unreadable > 0 ? 1 : 0;
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);

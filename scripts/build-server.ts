/**
 * `npm run build:server`: bundles the server (server/main.ts and everything it imports from
 * engine/, rules/ and schemas/_shared) into one ES module, dist/server/main.mjs, and the webhook
 * processing thread into dist/server/webhook-worker.mjs, with esbuild.
 * Pure-JavaScript packages are bundled too; native addons and pino stay in node_modules. Run it with `node dist/server/main.mjs`: no
 * TypeScript compiler at start, which is most of the difference between about 1.3 s and 0.4 s to
 * the first answer (README "Startup"). The bundle finds schemas/ and the rest of the project from
 * its own location (server/paths.ts), so it runs from the project folder it was built in.
 */
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');

/** Builds dist/server/main.mjs (and its source map). Throws on a compile error. */
export async function buildServer(): Promise<void> {
  await build({
    // The server, and the webhook processing and customer import threads' entries (their thread.ts finds them beside main.mjs).
    entryPoints: { main: join(root, 'server', 'main.ts'), 'webhook-worker': join(root, 'server', 'webhooks', 'worker.ts'), 'import-worker': join(root, 'server', 'services', 'customer-import', 'worker.ts') },
    outdir: join(root, 'dist', 'server'),
    outExtension: { '.js': '.mjs' },
    define: { __BUNDLED__: 'true' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Bundled: loading kysely's hundreds of ES modules one by one costs Node about 170 ms.
    // External: native addons, what loads files at run time, and nodemailer (imported at the first
    // e-mail: parsing its 400 KB at every start cost about 15 ms).
    external: ['better-sqlite3', 'pg', 'pino', 'esbuild', 'vite', 'nodemailer'],
    // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] && import.meta.filename === process.argv[1]) await buildServer();

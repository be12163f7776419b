import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Build assets worth compressing ahead of time: text-like, at least 1 KiB (server/serving.ts `MIN_BYTES`). */
const PRECOMPRESSED = /\.(?:js|mjs|css|json|svg|html)$/;

/**
 * Writes `<asset>.br` (brotli, quality 11) and `<asset>.gz` (gzip, level 9) beside each text asset of
 * the build, which the server sends as they are (`serveStatic({ precompressed: true })` in
 * server/app.ts). Compressing once at build time affords brotli's best quality: the entry is 13 KB
 * smaller on the wire than at the quality 5 the server can afford per answer (issue 12 "Speed": LCP
 * of `/programs` on slow 4G).
 */
export function precompressAssets(): Plugin {
  return {
    name: 'precompress-assets',
    apply: 'build',
    // After the files are written: vite's own generateBundle work (its preload helper among it) has
    // finished changing the chunks' code by then.
    writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) throw new Error('precompress-assets: the build has no output folder');
      for (const output of Object.values(bundle)) {
        if (!PRECOMPRESSED.test(output.fileName) || !output.fileName.startsWith('assets/')) continue;
        const path = join(dir, output.fileName);
        const bytes = readFileSync(path);
        if (bytes.byteLength < 1024) continue;
        writeFileSync(`${path}.br`, brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength } }));
        writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}


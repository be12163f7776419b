/**
 * Serving the admin (issue 12): hashed assets are compressed (brotli, else gzip) and cached as
 * immutable (the build's precompressed files sent as they are); the page is revalidated with its ETag; small and unacceptable answers stay as they are.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { chooseEncoding } from '../../server/serving';
import { precompressAssets } from '../../scripts/vite-precompress';
import { AUTH, openTestDatabase, repoRegistry } from '../support/app';

const SCRIPT = `console.log(${JSON.stringify('loyalty '.repeat(400))});\n`;

async function servedApp() {
  const uiDir = mkdtempSync(join(tmpdir(), 'ui-'));
  mkdirSync(join(uiDir, 'assets'));
  writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>Loyalty</title><script type="module" src="/assets/index-abc123.js"></script>');
  writeFileSync(join(uiDir, 'assets', 'index-abc123.js'), SCRIPT);
  writeFileSync(join(uiDir, 'assets', 'tiny-abc123.css'), 'a{color:red}');
  return createApp({ db: await openTestDatabase(), registry: repoRegistry(), auth: AUTH, uiDir });
}

describe('serving the admin', () => {
  it('sends hashed assets brotli-compressed when accepted, gzip otherwise, always immutable', async () => {
    const app = await servedApp();
    const br = await app.request('/assets/index-abc123.js', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(br.status).toBe(200);
    expect(br.headers.get('Content-Encoding')).toBe('br');
    expect(br.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('Vary')).toContain('Accept-Encoding');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(Number(br.headers.get('Content-Length'))).toBe(brBytes.byteLength);
    expect(brBytes.byteLength).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(brBytes).toString()).toBe(SCRIPT);

    const gz = await app.request('/assets/index-abc123.js', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers.get('Content-Encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(SCRIPT);

    const plain = await app.request('/assets/index-abc123.js');
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    expect(await plain.text()).toBe(SCRIPT);
  });

  it("sends the build's precompressed file (brotli 11, gzip 9) as it is when there is one", async () => {
    const uiDir = mkdtempSync(join(tmpdir(), 'ui-'));
    mkdirSync(join(uiDir, 'assets'));
    writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>Loyalty</title>');
    writeFileSync(join(uiDir, 'assets', 'index-abc123.js'), SCRIPT);
    // The precompress plugin of the build (scripts/vite-precompress.ts) writes the files beside it.
    const plugin = precompressAssets();
    const writeBundle = plugin.writeBundle as (options: { dir: string }, bundle: Record<string, { fileName: string }>) => void;
    writeBundle({ dir: uiDir }, { 'assets/index-abc123.js': { fileName: 'assets/index-abc123.js' } });
    const brFile = readFileSync(join(uiDir, 'assets', 'index-abc123.js.br'));
    expect(brotliDecompressSync(brFile).toString()).toBe(SCRIPT);
    expect(gunzipSync(readFileSync(join(uiDir, 'assets', 'index-abc123.js.gz'))).toString()).toBe(SCRIPT);
    const app = createApp({ db: await openTestDatabase(), registry: repoRegistry(), auth: AUTH, uiDir });

    const br = await app.request('/assets/index-abc123.js', { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(br.status).toBe(200);
    expect(br.headers.get('Content-Encoding')).toBe('br');
    expect(br.headers.get('Content-Type')).toMatch(/javascript/);
    expect(br.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('Vary')).toContain('Accept-Encoding');
    expect(Buffer.from(await br.arrayBuffer()).equals(brFile)).toBe(true);
    const gz = await app.request('/assets/index-abc123.js', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers.get('Content-Encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(SCRIPT);
    const plain = await app.request('/assets/index-abc123.js');
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    expect(await plain.text()).toBe(SCRIPT);
  });

  it('leaves answers under 1 KiB uncompressed', async () => {
    const app = await servedApp();
    const res = await app.request('/assets/tiny-abc123.css', { headers: { 'Accept-Encoding': 'br' } });
    expect(res.headers.get('Content-Encoding')).toBeNull();
    expect(await res.text()).toBe('a{color:red}');
  });

  it('revalidates the page: no-cache with an ETag, 304 while the build is the same', async () => {
    const app = await servedApp();
    const first = await app.request('/settings');
    expect(first.headers.get('Cache-Control')).toBe('no-cache');
    const etag = first.headers.get('ETag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(await first.text()).toContain('<title>Loyalty</title>');
    const again = await app.request('/dev_zone', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await app.request('/settings', { headers: { 'If-None-Match': '"old-build"' } })).status).toBe(200);
  });

  it('picks brotli, then gzip, honouring q=0', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding('*')).toBe('br');
  });
});

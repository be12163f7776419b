import { resolve } from 'node:path';
import type { ChunkingContext } from 'rolldown';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { englishCatalogSplit } from './scripts/english-split.ts';
import { precompressAssets } from './scripts/vite-precompress.ts';
import { SESSION_TOKEN_KEY } from './ui/api/session.ts';
import { listTypeOfTab } from './ui/pages/program-paths.ts';
import { LANGUAGE_STORAGE_PREFIX } from './ui/state/storage-keys.ts';
import { LANDING_SCREENS } from './ui/landing-screens.ts';

/** The modules whose texts the app's entry carries (scripts/english-split.ts): the entry and the landing screens. */
export const LANDING_ENTRIES = ['ui/main.tsx', ...LANDING_SCREENS.map((screen) => screen.module.slice(1))];

/**
 * The API calls a landing screen makes first, started by the preload script with the session token
 * (ui/api/prefetch.ts takes their answers): the shop and the platform access every screen's frame
 * asks for; on `/programs` the tab's program list (ui/pages/program-paths.ts `listTypeOfTab`; other
 * tabs none) and, while the admin is in English
 * (no other language stored), the kinds. Only with a token in sessionStorage (standalone): embedded,
 * App Bridge mints the token later.
 *
 * Then, while the main thread waits for the app's code, it makes one currency format in the admin's
 * language: the first number format a page makes loads the browser's number data (about 60 ms at
 * 4× CPU, measured in Chromium), and the programs list's "Gives" column, the landing screen's
 * largest text, is the first to format money. Made here, the list's own format costs under 1 ms.
 */
const LIST_OF_TAB = Object.fromEntries(Object.entries(listTypeOfTab).map(([tab, type]) => [tab, `/api/lp/programs/${type}`]));
const PREFETCH_SOURCE = `function(programs){try{var w='en',t=sessionStorage.getItem(${JSON.stringify(SESSION_TOKEN_KEY)});if(!t||window.shopify)return;var u=['/api/shops','/api/platform/access'];if(programs){var l=${JSON.stringify(LIST_OF_TAB)}[new URLSearchParams(location.search).get('type')||'earning'];if(l)u.push(l);var en=true;for(var i=0;i<localStorage.length;i++){var k=localStorage.key(i);if(k&&k.indexOf(${JSON.stringify(LANGUAGE_STORAGE_PREFIX)})===0&&!/^en(-US)?$/.test(localStorage.getItem(k)||'')){en=false;w=localStorage.getItem(k)}}if(en)u.push('/api/kinds')}var a='Bearer '+t,s=window.__loyaltyPrefetch={};u.forEach(function(p){s[p]={auth:a,at:Date.now(),response:fetch(p,{headers:{Accept:'application/json',Authorization:a}})}});setTimeout(function(){try{new Intl.NumberFormat(w,{style:'currency',currency:'USD'}).format(1)}catch(e){}},0)}catch(e){}}`;

/**
 * Screens load on demand (ui/app.tsx), so a first visit would fetch the app's code, run it, and only
 * then ask for the screen's code: one more round trip before anything is drawn (issue 12 "Speed",
 * LCP on slow 4G). This emits a tiny script (`assets/preload-landing-<hash>.js`, loaded `async` from
 * index.html's head; the CSP allows no inline script) that, for a landing screen's path, adds
 * `<link rel="modulepreload">` for that screen's chunks, so they download beside the app's own, and
 * starts the screen's first API calls (PREFETCH_SOURCE), so their answers arrive while the code does.
 * Any other path preloads the chunk of the other screens' routes (ui/screens.tsx), which the router
 * fetches before it can match such a path; vite's own preloading of a lazy chunk skips links already
 * present.
 */
/** The module holding every other screen's routes (ui/app.tsx `loadScreenRoutes`). */
const OTHER_SCREENS_MODULE = '/ui/screens.tsx';

function preloadLandingScreens(): Plugin {
  let fileName: string | undefined;
  return {
    name: 'preload-landing-screens',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
      const entry = chunks.find((c) => c.isEntry)?.fileName;
      const chunksOf = (name: string, seen: Set<string>): string[] => {
        const chunk = bundle[name];
        if (!chunk || chunk.type !== 'chunk' || seen.has(name) || name === entry) return [];
        seen.add(name);
        return [name, ...chunk.imports.flatMap((imported) => chunksOf(imported, seen))];
      };
      const map = LANDING_SCREENS.map((screen) => {
        const chunk = chunks.find((c) => c.moduleIds.some((id) => id.endsWith(screen.module)));
        if (!chunk) throw new Error(`preload-landing-screens: no lazy chunk for ${screen.module}`);
        return [screen.path, chunksOf(chunk.fileName, new Set()).map((name) => `/${name}`), screen.programs === true];
      });
      // Any other path opens a screen of ui/screens.tsx, whose routes the router fetches first.
      const screens = chunks.find((c) => c.moduleIds.some((id) => id.endsWith(OTHER_SCREENS_MODULE)));
      if (!screens) throw new Error(`preload-landing-screens: no lazy chunk for ${OTHER_SCREENS_MODULE}`);
      const other = chunksOf(screens.fileName, new Set()).map((name) => `/${name}`);
      const source = `(function(){var f=${PREFETCH_SOURCE};var m=${JSON.stringify(map)},p=location.pathname,h=${JSON.stringify(other)};for(var i=0;i<m.length;i++)if(new RegExp(m[i][0]).test(p)){f(m[i][2]);h=m[i][1];break}h.forEach(function(u){var l=document.createElement('link');l.rel='modulepreload';l.href=u;document.head.appendChild(l)})})();\n`;
      fileName = this.getFileName(this.emitFile({ type: 'asset', name: 'preload-landing.js', source }));
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!fileName) throw new Error('preload-landing-screens: the preload script was not emitted before index.html');
        return { html, tags: [{ tag: 'script', attrs: { async: true, src: `/${fileName}` }, injectTo: 'head-prepend' }] };
      },
    },
  };
}

/**
 * V8's explicit compile hint (`//# allFunctionsCalledOnLoad`, Chromium 136 on) at the top of the
 * app's entry, the chunks it imports statically and the landing screens' chunks (with theirs): their functions are compiled on a background thread
 * while the file streams in, instead of one by one on the main thread when first called, and nearly
 * all of them run on the first load anyway. Measured on `/programs` (slow 4G, 4× CPU, 5 runs each):
 * LCP 1,708 ms without, 1,608 ms with. Lazy chunks of other screens keep V8's lazy compilation.
 * Browsers without the hint read a comment.
 */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

function compileHintsForLanding(): Plugin {
  return {
    name: 'compile-hints-for-landing',
    apply: 'build',
    // After minification (which drops comments) and vite's own additions to the chunk's head.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        // The entry, the chunks it imports statically (rolldown may move modules the entry shares
        // with lazy chunks into one of its own), and the landing screens' chunks.
        const hinted = new Set<string>();
        const add = (name: string): void => {
          const chunk = bundle[name];
          if (hinted.has(name) || chunk?.type !== 'chunk') return;
          hinted.add(name);
          chunk.imports.forEach(add);
        };
        for (const chunk of Object.values(bundle)) {
          if (chunk.type === 'chunk' && (chunk.isEntry || chunk.name.startsWith(LANDING_CHUNK_PREFIX))) add(chunk.fileName);
        }
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !hinted.has(chunk.fileName)) continue;
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          // One line more at the top: every mapping moves down a line (the chunk's map and, with
          // `--sourcemap`, the map file already in the bundle).
          if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
          const mapFile = bundle[`${chunk.fileName}.map`];
          if (mapFile?.type === 'asset') {
            const map = JSON.parse(String(mapFile.source)) as { mappings: string };
            map.mappings = `;${map.mappings}`;
            mapFile.source = JSON.stringify(map);
          }
        }
      },
    },
  };
}

/** The module ids statically reachable from `from` (itself included), through `getModuleInfo`. */
function staticClosure(from: string, info: ChunkingContext['getModuleInfo']): Set<string> {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(info(id)?.importedIds ?? []));
  }
  return seen;
}

/** Name prefix of the landing screens' chunks (landingScreenChunk). */
const LANDING_CHUNK_PREFIX = 'screen-';

/**
 * One chunk per landing screen: the screen's module and the small modules only it and later screens
 * share (tabs, badges, tables, modals), which would otherwise be a dozen chunks of 1 KB each, and over
 * HTTP/1.1's six connections a dozen requests queue behind the app's own. What the app's entry
 * already holds stays there.
 */
function landingScreenChunk(): (id: string, ctx: ChunkingContext) => string | null {
  let owners: Map<string, string> | undefined;
  return (id, ctx) => {
    if (!owners) {
      const info = ctx.getModuleInfo.bind(ctx);
      const entry = [...staticClosure(resolve(import.meta.dirname, 'ui/main.tsx'), info)];
      const inEntry = new Set(entry);
      owners = new Map();
      for (const screen of LANDING_SCREENS) {
        const name = `${LANDING_CHUNK_PREFIX}${screen.module.split('/').pop()!.replace(/\.tsx?$/, '')}`;
        for (const module of staticClosure(resolve(import.meta.dirname, screen.module.slice(1)), info)) {
          if (!inEntry.has(module) && !owners.has(module)) owners.set(module, name);
        }
      }
    }
    return owners.get(id) ?? null;
  };
}

/** Builds the merchant admin from ui/ into dist/ui; `npm start` serves it with the API on one port. */
export default defineConfig(({ command }) => ({
  root: 'ui',
  plugins: [react(), englishCatalogSplit(LANDING_ENTRIES), preloadLandingScreens(), compileHintsForLanding(), precompressAssets()],
  resolve: {
    // react-router's package exports name only its development build (warnings, invariant messages,
    // 93 KB); a built admin takes the production build it ships beside it. The dev server keeps the
    // development one for its warnings.
    alias: command === 'build' ? [
      { find: /^react-router$/, replacement: resolve(import.meta.dirname, 'node_modules/react-router/dist/production/index.mjs') },
      { find: /^react-router\/dom$/, replacement: resolve(import.meta.dirname, 'node_modules/react-router/dist/production/dom-export.mjs') },
    ] : [],
  },
  build: {
    outDir: '../dist/ui',
    emptyOutDir: true,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: landingScreenChunk(), debugName: 'landing screens', includeDependenciesRecursively: false }] } } },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/auth/demo-login': 'http://localhost:3000', '/auth/config': 'http://localhost:3000' } },
}));

import { defineConfig } from 'vite';

/**
 * Builds the storefront widget (ui/widget/main.ts) as one self-contained IIFE script,
 * dist/widget/loyalty-widget.js; the server serves it under a content-hashed name with immutable
 * caching, behind the small `/widget/loader.js` a theme embeds (server/widget-assets.ts).
 */
export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2020',
    lib: { entry: 'ui/widget/main.ts', formats: ['iife'], name: 'LoyaltyWidgetBundle', fileName: () => 'loyalty-widget.js' },
  },
});

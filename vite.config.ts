import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** Builds the merchant admin from ui/ into dist/ui; `npm start` serves it with the API on one port. */
export default defineConfig({
  root: 'ui',
  plugins: [react()],
  build: { outDir: '../dist/ui', emptyOutDir: true },
  server: { proxy: { '/api': 'http://localhost:3000', '/auth/demo-login': 'http://localhost:3000', '/auth/config': 'http://localhost:3000' } },
});

import { defineConfig } from 'vite';

// Folio Studio: built into dist/studio/app and served by `folio serve` under /admin (src/studio/serve.ts).
export default defineConfig({
  root: import.meta.dirname,
  base: '/admin/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../../../dist/studio/app',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
});

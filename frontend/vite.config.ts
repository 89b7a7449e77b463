import { defineConfig } from 'vitest/config';
import tailwindcss from '@tailwindcss/vite';

// No React plugin: Vite's own transformer compiles TSX with the automatic JSX
// runtime, and signals are wired with useSignals() instead of a Babel transform.
export default defineConfig({
  plugins: [tailwindcss()],
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    // Inlined assets would become data: URLs in CSS/JS; keep everything as files.
    assetsInlineLimit: 0,
    sourcemap: false,
    rolldownOptions: {
      // Headless UI marks its modules "use client" for React Server Components; meaningless in an SPA bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/cdn': 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['src/testing/setup.ts'],
    css: false,
  },
});

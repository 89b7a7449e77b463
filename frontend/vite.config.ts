import { defineConfig } from 'vitest/config';
import tailwindcss from '@tailwindcss/vite';

// `npm run dev` proxies the API to a running perkdesk; PERKDESK_DEV_API points it elsewhere than :8080.
const devApiTarget = process.env.PERKDESK_DEV_API ?? 'http://127.0.0.1:8080';

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
    proxy: { '/api': devApiTarget, '/cdn': devApiTarget },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['src/testing/setup.ts'],
    css: false,
    // Screen tests click through whole forms; on a busy 2-core machine one can pass 5 s without being stuck.
    testTimeout: 15_000,
  },
});

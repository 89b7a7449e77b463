import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import tailwindcss from '@tailwindcss/vite';

/** Files worth compressing: text. Pictures (PNG, JPEG) are compressed already. */
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|txt)$/;

/**
 * Writes `<file>.gz` beside every text file of the build, and `<file>.br` where
 * that is smaller than the file, at the strongest settings (the cost is paid
 * once, here), so the server only picks the sibling the browser's
 * Accept-Encoding allows (src/http/web.rs) and never compresses per request.
 * The binary embeds the text files' copies only, never the files themselves.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'perkdesk-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((entry) => {
          const full = path.join(dir, entry);
          return statSync(full).isDirectory() ? walk(full) : [full];
        });
      for (const file of walk(outDir).filter((name) => COMPRESSIBLE.test(name))) {
        const source = readFileSync(file);
        const brotli = brotliCompressSync(source, {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
        });
        const gzip = gzipSync(source, { level: 9 });
        if (brotli.length < source.length) writeFileSync(`${file}.br`, brotli);
        // Always written: the binary carries text files as their gzip copies only (src/http/web.rs).
        writeFileSync(`${file}.gz`, gzip);
      }
    },
  };
}

// `npm run dev` proxies the API to a running perkdesk; PERKDESK_DEV_API points it elsewhere than :8080.
const devApiTarget = process.env.PERKDESK_DEV_API ?? 'http://127.0.0.1:8080';

// No React plugin: Vite's own transformer compiles TSX with the automatic JSX
// runtime, and signals are wired with useSignals() instead of a Babel transform.
export default defineConfig({
  plugins: [tailwindcss(), precompress()],
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
    // Vitest leaves one core free by default: on a 2-core machine that is one worker, and the
    // unit tests took 220 s instead of 160 s.
    maxWorkers: availableParallelism(),
  },
});

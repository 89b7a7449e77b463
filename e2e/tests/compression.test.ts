import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PerkdeskServer } from '../support/server';

/**
 * The embedded JavaScript, CSS and HTML go out compressed when the browser
 * accepts it (Brotli first, then gzip), as they were compressed at build time,
 * and decode to exactly the bytes sent to a client that accepts neither.
 */
const server = new PerkdeskServer();

beforeAll(() => server.start());
afterAll(() => server.stop());

const get = (path: string, encoding?: string) =>
  fetch(`${server.baseUrl}${path}`, { headers: encoding === undefined ? {} : { 'Accept-Encoding': encoding } });

/** The scripts and stylesheets index.html loads (the same for every client). */
async function entryAssets(): Promise<string[]> {
  const html = await (await get('/', 'identity')).text();
  const paths = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);
  expect(paths.length, 'index.html names its script and stylesheet').toBeGreaterThanOrEqual(2);
  return paths;
}

describe('precompressed assets', () => {
  it('sends br or gzip by Accept-Encoding, with Vary, and the bodies decode to the plain bytes', async () => {
    for (const path of ['/', ...(await entryAssets())]) {
      const plainResponse = await get(path, 'identity');
      expect(plainResponse.status).toBe(200);
      expect(plainResponse.headers.get('content-encoding'), `${path} plain`).toBeNull();
      expect(plainResponse.headers.get('vary')?.toLowerCase(), `${path} Vary`).toContain('accept-encoding');
      const plain = Buffer.from(await plainResponse.arrayBuffer());

      // Node's fetch decodes bodies itself, so read the raw bytes through a request that keeps them.
      for (const [accept, encoding, decode] of [
        ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
        ['gzip, deflate', 'gzip', gunzipSync],
        ['br;q=0, gzip', 'gzip', gunzipSync],
      ] as const) {
        const { headers, body } = await rawGet(`${server.baseUrl}${path}`, accept);
        expect(headers['content-encoding'], `${path} for "${accept}"`).toBe(encoding);
        expect(headers.vary?.toLowerCase()).toContain('accept-encoding');
        expect(body.length, `${path} compressed is smaller`).toBeLessThan(plain.length);
        expect(decode(body).equals(plain), `${path} as ${encoding} decodes to the same bytes`).toBe(true);
      }
    }
  });

  it('keeps one validator per encoding, so a cached gzip copy is never confirmed to a client wanting plain bytes', async () => {
    const [script] = await entryAssets();
    const gzip = await rawGet(`${server.baseUrl}${script}`, 'gzip');
    const plain = await get(script, 'identity');
    expect(gzip.headers.etag).toBeTruthy();
    expect(gzip.headers.etag).not.toBe(plain.headers.get('etag'));
    const revalidated = await get(script, 'identity');
    expect(revalidated.status).toBe(200);
    const notModified = await fetch(`${server.baseUrl}${script}`, { headers: { 'Accept-Encoding': 'identity', 'If-None-Match': plain.headers.get('etag') ?? '' } });
    expect(notModified.status).toBe(304);
  });
});

/** A GET whose body comes back exactly as sent (undecoded). */
async function rawGet(url: string, acceptEncoding: string): Promise<{ headers: Record<string, string | undefined>; body: Buffer }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'Accept-Encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          headers: Object.fromEntries(Object.entries(response.headers).map(([key, value]) => [key, Array.isArray(value) ? value.join(', ') : value])),
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

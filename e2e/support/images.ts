import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real PNG (8-bit RGB, a diagonal two-colour split), small enough for any
 * upload limit and distinct enough to tell apart in a screenshot.
 */
export function pngBytes(size: number, from: [number, number, number], to: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const raw = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y += 1) {
    const row = y * (1 + size * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x += 1) {
      const colour = x + y < size ? from : to;
      raw.set(colour, row + 1 + x * 3);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Files on disk to pick in the browser's file chooser, as a person would: two
 * real PNGs, a text file renamed to .png (the browser calls it image/png; only
 * its bytes give it away) and a plain text file.
 */
export class PictureFolder {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'perkdesk-e2e-images-'));
  readonly logo = this.write('logo.png', pngBytes(64, [79, 70, 229], [250, 204, 21]));
  readonly otherLogo = this.write('other-logo.png', pngBytes(48, [16, 185, 129], [239, 68, 68]));
  readonly fakePng = this.write('notes.png', Buffer.from('These are meeting notes, not a picture.\n'));
  readonly textFile = this.write('notes.txt', Buffer.from('These are meeting notes, not a picture.\n'));

  private write(name: string, bytes: Buffer): string {
    const file = path.join(this.dir, name);
    writeFileSync(file, bytes);
    return file;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

// The app's icons for packaging, drawn in code (no image tools, no dependencies):
//   desktop/build-resources/icon.png   512×512, for Linux and as electron-builder's source
//   desktop/build-resources/icon.ico   16–256 px, PNG-compressed entries (Windows Vista and later)
//   desktop/build-resources/icon.icns  16–1024 px, PNG entries (macOS 10.7 and later)
// Run `node desktop/scripts/make-icons.ts` after changing the drawing; the output is
// deterministic, and test/desktop/packaging.test.ts checks the committed files match it.
//
// The design is the header's logo: a blue rounded square with a white "±".
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

type Rgba = [number, number, number, number];

/** A rounded rectangle in units of the icon's width (0..1). */
interface Shape {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  r: number;
}

// The macOS grid leaves about 10% around the body; the other systems look fine with it too.
const BODY: Shape = { x0: 0.0977, y0: 0.0977, x1: 0.9023, y1: 0.9023, r: 0.18 };
const BAR = 0.085; // the strokes of the glyph
const GLYPH: Shape[] = [
  // the plus, centred at (0.5, 0.40)
  { x0: 0.3, y0: 0.4 - BAR / 2, x1: 0.7, y1: 0.4 + BAR / 2, r: BAR / 2 },
  { x0: 0.5 - BAR / 2, y0: 0.2, x1: 0.5 + BAR / 2, y1: 0.6, r: BAR / 2 },
  // the minus
  { x0: 0.3, y0: 0.75 - BAR / 2, x1: 0.7, y1: 0.75 + BAR / 2, r: BAR / 2 },
];

const TOP: Rgba = [0x3d, 0x6f, 0xe0, 255]; // a little lighter than the UI's accent (#2f5fd0)…
const BOTTOM: Rgba = [0x24, 0x47, 0xa8, 255]; // …to a little darker, top to bottom
const WHITE: Rgba = [255, 255, 255, 255];

function inside(shape: Shape, x: number, y: number): boolean {
  const cx = Math.min(Math.max(x, shape.x0 + shape.r), shape.x1 - shape.r);
  const cy = Math.min(Math.max(y, shape.y0 + shape.r), shape.y1 - shape.r);
  return (
    (x - cx) ** 2 + (y - cy) ** 2 <= shape.r ** 2 && x >= shape.x0 && x <= shape.x1 && y >= shape.y0 && y <= shape.y1
  );
}

/** RGBA pixels of the icon at `size`×`size`, 4×4 supersampled. */
export function renderIcon(size: number): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  const SS = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let body = 0;
      let glyph = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const x = (px + (sx + 0.5) / SS) / size;
          const y = (py + (sy + 0.5) / SS) / size;
          if (!inside(BODY, x, y)) continue;
          body++;
          if (GLYPH.some((shape) => inside(shape, x, y))) glyph++;
        }
      }
      if (body === 0) continue;
      const t = (py + 0.5) / size;
      const background = TOP.map((c, i) => c + (BOTTOM[i]! - c) * t);
      const g = glyph / body; // the glyph's share of the covered part
      const offset = (py * size + px) * 4;
      for (let i = 0; i < 3; i++) pixels[offset + i] = Math.round(background[i]! * (1 - g) + WHITE[i]! * g);
      pixels[offset + 3] = Math.round((255 * body) / (SS * SS));
    }
  }
  return pixels;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG file (8-bit RGBA, no interlace) of the icon at `size`. */
export function iconPng(size: number): Buffer {
  const pixels = renderIcon(size);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // filter: none
    pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // bit depth 8, colour type RGBA, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];

/** A Windows .ico whose entries are PNG images (allowed since Windows Vista). */
export function iconIco(): Buffer {
  const images = ICO_SIZES.map((size) => ({ size, png: iconPng(size) }));
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry[0] = size >= 256 ? 0 : size; // 0 means 256
    entry[1] = size >= 256 ? 0 : size;
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.png)]);
}

/** The .icns element types used, with their pixel sizes (all hold PNG data). */
export const ICNS_TYPES: [string, number][] = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32], // 16@2x
  ['ic12', 64], // 32@2x
  ['ic07', 128],
  ['ic13', 256], // 128@2x
  ['ic08', 256],
  ['ic14', 512], // 256@2x
  ['ic09', 512],
  ['ic10', 1024], // 512@2x
];

/** A macOS .icns with PNG elements. */
export function iconIcns(): Buffer {
  const cache = new Map<number, Buffer>();
  const elements = ICNS_TYPES.map(([type, size]) => {
    const png = cache.get(size) ?? iconPng(size);
    cache.set(size, png);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const body = Buffer.concat(elements);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

export function iconFiles(): Record<'icon.png' | 'icon.ico' | 'icon.icns', Buffer> {
  return { 'icon.png': iconPng(512), 'icon.ico': iconIco(), 'icon.icns': iconIcns() };
}

export const BUILD_RESOURCES = path.resolve(import.meta.dirname, '../build-resources');

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  mkdirSync(BUILD_RESOURCES, { recursive: true });
  for (const [name, bytes] of Object.entries(iconFiles())) {
    writeFileSync(path.join(BUILD_RESOURCES, name), bytes);
    console.log(`${path.relative(process.cwd(), path.join(BUILD_RESOURCES, name))}  ${bytes.length} bytes`);
  }
}

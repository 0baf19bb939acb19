// Draws the marketplace icon (media/icon.png, 128×128) without any image library: a rounded
// square, a diff's "+" and "−" lines, and a check mark, anti-aliased by coverage sampling.
//   node extension/scripts/make-icon.mjs
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 128;
const SAMPLES = 4; // 4×4 samples per pixel

/** Shapes as "is this point inside?" tests, painted in order (later on top). */
const roundedSquare = (x, y) => {
  const r = 26;
  const cx = Math.min(Math.max(x, 8 + r), 120 - r);
  const cy = Math.min(Math.max(y, 8 + r), 120 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const rect = (x0, y0, x1, y1) => (x, y) => x >= x0 && x <= x1 && y >= y0 && y <= y1;
const segment = (ax, ay, bx, by, width) => (x, y) => {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return (x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= (width / 2) ** 2;
};
const any =
  (...shapes) =>
  (x, y) =>
    shapes.some((shape) => shape(x, y));

const layers = [
  { shape: roundedSquare, color: [33, 92, 168] },
  // "+" line of a diff, then a "−" line.
  { shape: any(rect(26, 30, 34, 54), rect(18, 38, 42, 46), rect(50, 38, 104, 46)), color: [120, 220, 140] },
  { shape: any(rect(18, 64, 42, 72), rect(50, 64, 84, 72)), color: [250, 140, 130] },
  // The check mark: reviewed.
  { shape: any(segment(58, 94, 72, 106, 10), segment(72, 106, 104, 76, 10)), color: [255, 255, 255] },
];

const pixels = Buffer.alloc(SIZE * SIZE * 4);
for (let y = 0; y < SIZE; y++) {
  for (let x = 0; x < SIZE; x++) {
    let [r, g, b, a] = [0, 0, 0, 0];
    for (let sy = 0; sy < SAMPLES; sy++) {
      for (let sx = 0; sx < SAMPLES; sx++) {
        const px = x + (sx + 0.5) / SAMPLES;
        const py = y + (sy + 0.5) / SAMPLES;
        const top = layers.findLast((layer) => layer.shape(px, py));
        if (!top) continue;
        r += top.color[0];
        g += top.color[1];
        b += top.color[2];
        a += 1;
      }
    }
    const offset = (y * SIZE + x) * 4;
    if (a > 0)
      pixels.set(
        [Math.round(r / a), Math.round(g / a), Math.round(b / a), Math.round((255 * a) / SAMPLES ** 2)],
        offset,
      );
  }
}

// PNG: signature, IHDR (RGBA, 8 bits), IDAT (each row prefixed by filter 0), IEND.
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buffer) => {
  let c = 0xffffffff;
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 6, 0, 0, 0], 8);
const rows = Buffer.concat(
  Array.from({ length: SIZE }, (_, y) =>
    Buffer.concat([Buffer.from([0]), pixels.subarray(y * SIZE * 4, (y + 1) * SIZE * 4)]),
  ),
);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(rows, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const target = new URL('../media/icon.png', import.meta.url);
writeFileSync(target, png);
console.log(`wrote ${target.pathname} (${png.length} bytes)`);

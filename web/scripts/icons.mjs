// The app icons as PNGs, drawn from the picture of static/favicon.svg (on its 32-unit grid: a dark
// square, an orange chevron from (8,22) up to (16,6) and down to (24,22), a teal dot at (16,22)),
// so that no binary file is committed. 4x4 samples per pixel smooth the edges.
import { deflateSync } from 'node:zlib';

const BG = [0x07, 0x09, 0x0d];
const CHEVRON = [0xff, 0x9e, 0x2c];
const DOT = [0x3e, 0xe6, 0xc1];

function segmentDistance(px, py, ax, ay, bx, by) {
  const dx = bx - ax, dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

// The colour at a point of the 32-unit grid, or null outside the (rounded) square.
function colourAt(x, y, rounded) {
  if (rounded) {
    const r = 6, cx = Math.min(Math.max(x, r), 32 - r), cy = Math.min(Math.max(y, r), 32 - r);
    if (Math.hypot(x - cx, y - cy) > r) return null;
  }
  if (Math.hypot(x - 16, y - 22) <= 3) return DOT;
  if (segmentDistance(x, y, 8, 22, 16, 6) <= 1.5 || segmentDistance(x, y, 16, 6, 24, 22) <= 1.5) return CHEVRON;
  return BG;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A `size` x `size` RGBA PNG of the icon; `rounded`: transparent corners (else full bleed). */
export function iconPng(size, rounded) {
  const n = 4, scale = 32 / size;
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++)
        for (let sx = 0; sx < n; sx++) {
          const c = colourAt((x + (sx + 0.5) / n) * scale, (y + (sy + 0.5) / n) * scale, rounded);
          if (!c) continue;
          sum[0] += c[0]; sum[1] += c[1]; sum[2] += c[2]; sum[3] += 255;
        }
      const covered = sum[3] / 255;
      const at = row + 1 + x * 4;
      for (let k = 0; k < 3; k++) raw[at + k] = covered ? Math.round(sum[k] / covered) : 0;
      raw[at + 3] = Math.round(sum[3] / (n * n));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

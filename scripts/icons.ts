// Draws the shop's logo (the same shape as app/components/Logo.tsx and public/favicon.svg) and
// writes the app icons into public/icons/: an SVG, PNGs of 192 and 512 px, and a maskable 512 px
// PNG. No image library and no downloads: the shape is rasterised here with 4x4 supersampling and
// the PNG is written by hand (zlib deflate + CRC32 from node:zlib).
//   node scripts/icons.ts
import { mkdirSync, writeFileSync } from "node:fs";
import { crc32, deflateSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { MANIFEST_ICONS } from "../contract/web-manifest.ts";

type Point = readonly [number, number];
type Rgb = readonly [number, number, number];

/** The logo in its 40x40 design space. */
const BRAND: Rgb = [0x0f, 0x5f, 0xd7];
const WHITE: Rgb = [0xff, 0xff, 0xff];
const STROKE_HALF = 1.5; // stroke-width 3
const CORNER = 10;
/** "M12 27V13h6.5a4.5 4.5 0 0 1 0 9H15m7 5 6-14" as segments and the one arc. */
const SEGMENTS: [Point, Point][] = [
  [
    [12, 27],
    [12, 13],
  ],
  [
    [12, 13],
    [18.5, 13],
  ],
  [
    [18.5, 22],
    [15, 22],
  ],
  [
    [22, 27],
    [28, 13],
  ],
];
/** The arc from (18.5,13) to (18.5,22), sweeping clockwise through x = 23: the right half circle. */
const ARC = { cx: 18.5, cy: 17.5, r: 4.5 };
const PATH_D = "M12 27V13h6.5a4.5 4.5 0 0 1 0 9H15m7 5 6-14";

export function logoSvg({ maskable = false } = {}): string {
  // Maskable icons bleed to the edges and keep the mark inside the 80% safe circle.
  const background = maskable
    ? `<rect width="40" height="40" fill="#0f5fd7"/>`
    : `<rect width="40" height="40" rx="${CORNER}" fill="#0f5fd7"/>`;
  const mark = `<path d="${PATH_D}" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"${maskable ? ` transform="translate(20 20) scale(.7) translate(-20 -20)"` : ""}/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40">${background}${mark}</svg>\n`;
}

function distanceToSegment(p: Point, [a, b]: [Point, Point]): number {
  const [px, py] = p;
  const [ax, ay] = a;
  const dx = b[0] - ax;
  const dy = b[1] - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function distanceToArc([px, py]: Point): number {
  const { cx, cy, r } = ARC;
  if (px >= cx) return Math.abs(Math.hypot(px - cx, py - cy) - r);
  return Math.min(Math.hypot(px - cx, py - (cy - r)), Math.hypot(px - cx, py - (cy + r)));
}

function onStroke(p: Point): boolean {
  if (distanceToArc(p) <= STROKE_HALF) return true;
  return SEGMENTS.some((s) => distanceToSegment(p, s) <= STROKE_HALF);
}

function insideRoundedSquare([x, y]: Point): boolean {
  if (x < 0 || y < 0 || x > 40 || y > 40) return false;
  const qx = Math.max(CORNER - x, x - (40 - CORNER), 0);
  const qy = Math.max(CORNER - y, y - (40 - CORNER), 0);
  return Math.hypot(qx, qy) <= CORNER;
}

/** RGBA pixels of the logo at size x size; the maskable variant is full-bleed with a smaller mark. */
export function rasterise(size: number, { maskable = false } = {}): Uint8Array {
  const SS = 4;
  const pixels = new Uint8Array(size * size * 4);
  const unit = 40 / size;
  const markScale = maskable ? 0.7 : 1;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const p: Point = [(x + (sx + 0.5) / SS) * unit, (y + (sy + 0.5) / SS) * unit];
          if (!maskable && !insideRoundedSquare(p)) continue;
          bg++;
          const m: Point = [20 + (p[0] - 20) / markScale, 20 + (p[1] - 20) / markScale];
          if (onStroke(m)) fg++;
        }
      }
      const o = (y * size + x) * 4;
      const samples = SS * SS;
      const mix = bg ? fg / bg : 0;
      for (let c = 0; c < 3; c++) pixels[o + c] = Math.round(BRAND[c] * (1 - mix) + WHITE[c] * mix);
      pixels[o + 3] = Math.round((255 * bg) / samples);
    }
  }
  return pixels;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG file (8-bit RGBA, no filtering) from raw pixels. */
export function encodePng(size: number, rgba: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  const stride = size * 4;
  const raw = Buffer.alloc((stride + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (stride + 1)] = 0; // filter: none
    raw.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", new Uint8Array()),
  ]);
}

/** The icons the manifests list (contract/web-manifest.ts). */
export const ICONS = MANIFEST_ICONS;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = fileURLToPath(new URL("../public/icons/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}icon.svg`, logoSvg());
  writeFileSync(`${dir}icon-maskable.svg`, logoSvg({ maskable: true }));
  for (const icon of ICONS) {
    writeFileSync(`${dir}${icon.file}`, encodePng(icon.size, rasterise(icon.size, { maskable: icon.maskable })));
  }
  console.log(`icons written to ${dir}`);
}

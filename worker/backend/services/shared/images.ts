import type { MediaType } from "../../../../contract/console-catalogue";

/**
 * Images the shop takes from people (staff uploads in the console, shoppers' review photos): the
 * type is what the file's first bytes say, never what the request claims, and only JPEG, PNG and
 * WebP (no SVG, which can carry script); the size in pixels is read from the header, so a file
 * that merely starts like an image but has no readable size is refused too. An image is stored
 * under its content's hash (`imageKey`), so the same image twice is one object and a URL never
 * changes what it shows.
 */

export const EXTENSION: Record<MediaType, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };

export interface ImageFacts {
  type: MediaType;
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

function png(b: Uint8Array): ImageFacts | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (b.length < 24 || !signature.every((x, i) => b[i] === x) || ascii(b, 12, 4) !== "IHDR") return null;
  return { type: "image/png", width: u32be(b, 16), height: u32be(b, 20) };
}

function jpeg(b: Uint8Array): ImageFacts | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return null;
  // Walk the segments to the frame header (SOF0..SOF15 but DHT, JPG and DAC), which holds the size.
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++;
      continue;
    }
    const length = u16be(b, i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { type: "image/jpeg", height: u16be(b, i + 5), width: u16be(b, i + 7) };
    if (length < 2) return null;
    i += 2 + length;
  }
  return null;
}

function webp(b: Uint8Array): ImageFacts | null {
  if (b.length < 30 || ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 4) !== "WEBP") return null;
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8 ") return { type: "image/webp", width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  if (chunk === "VP8L" && b[20] === 0x2f) {
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
    return { type: "image/webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") return { type: "image/webp", width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  return null;
}

/** What an image's first bytes say it is, or null for anything else (SVG, GIF, text, a truncated file). */
export function sniffImage(bytes: Uint8Array): ImageFacts | null {
  const facts = png(bytes) ?? jpeg(bytes) ?? webp(bytes);
  return facts && facts.width > 0 && facts.height > 0 ? facts : null;
}

/** An image's key: the first 128 bits of its SHA-256 in hex, and its sniffed type's extension. */
export async function imageKey(bytes: Uint8Array<ArrayBuffer>, facts: ImageFacts): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = [...digest.subarray(0, 16)].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex}.${EXTENSION[facts.type]}`;
}

/** How an image the shop stored is served: the type recorded at upload, never sniffed again, kept forever. */
export function imageResponse(body: ReadableStream, type: string): Response {
  return new Response(body, {
    headers: {
      "content-type": type,
      "cache-control": "public, max-age=31536000, immutable",
      "content-security-policy": "default-src 'none'",
      "x-content-type-options": "nosniff",
    },
  });
}

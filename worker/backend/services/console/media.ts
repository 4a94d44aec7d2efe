import { MEDIA_MAX_BYTES, type MediaType, type MediaUpload } from "../../../../contract/console-catalogue";
import type { Lang, StaffCaller } from "../../env";
import { BackendError } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { auditStatement } from "./audit-log";
import { msg } from "../../messages";

/**
 * Images staff upload, kept in R2 (binding MEDIA) and served from the shop's own origin
 * at /backend/media/uploads/{key} (the CSP's img-src 'self'). The type is what the file's first
 * bytes say, never what the request claims: JPEG, PNG and WebP only (no SVG, which can carry
 * script), at most MEDIA_MAX_BYTES, and the size in pixels is read from the header, so a file that
 * merely starts like an image but has no readable size is refused too. The key is the content's
 * hash, so the same image uploaded twice is stored once and a URL never changes what it shows.
 */

export const UPLOADS_PATH = "/backend/media/uploads/";
const EXTENSION: Record<MediaType, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };

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

const SAY = {
  tooLarge: msg("console.media.tooLarge"),
  empty: msg("console.media.empty"),
  type: msg("console.media.type"),
};

function refused(lang: Lang, message: { en: string; ar: string }, params?: Record<string, string | number>) {
  const text = say(lang, message, params);
  return new BackendError(422, text, { file: [text] });
}

/** Checks and stores an uploaded image; the 422 names what is wrong with it. */
export async function storeUpload(
  env: { DB: D1Database; MEDIA: R2Bucket },
  lang: Lang,
  staff: Pick<StaffCaller, "user_id" | "email">,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<MediaUpload> {
  if (bytes.byteLength === 0) throw refused(lang, SAY.empty);
  if (bytes.byteLength > MEDIA_MAX_BYTES) throw refused(lang, SAY.tooLarge, { mb: MEDIA_MAX_BYTES / 1024 / 1024 });
  const facts = sniffImage(bytes);
  if (!facts) throw refused(lang, SAY.type);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = [...digest.subarray(0, 16)].map((x) => x.toString(16).padStart(2, "0")).join("");
  const key = `${hex}.${EXTENSION[facts.type]}`;
  // The bytes first: a row never names an object R2 does not hold. The same image again is one
  // object, one row, and no new audit line.
  await env.MEDIA.put(key, bytes, { httpMetadata: { contentType: facts.type } });
  const known = await env.DB.prepare("SELECT 1 FROM media_uploads WHERE key = ?").bind(key).first();
  if (!known) {
    const record = { key, content_type: facts.type, size: bytes.byteLength, width: facts.width, height: facts.height };
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO media_uploads (key, content_type, size, width, height, staff_user_id) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (key) DO NOTHING`,
      ).bind(key, facts.type, bytes.byteLength, facts.width, facts.height, staff.user_id),
      auditStatement(env.DB, staff, "media.upload", "media", key, null, record),
    ]);
  }
  return {
    key,
    url: `${UPLOADS_PATH}${key}`,
    content_type: facts.type,
    size: bytes.byteLength,
    width: facts.width,
    height: facts.height,
  };
}

/** An uploaded image to serve, or null. */
export async function readUpload(media: R2Bucket, key: string): Promise<{ body: ReadableStream; type: string } | null> {
  const object = await media.get(key);
  if (!object) return null;
  return { body: object.body, type: object.httpMetadata?.contentType ?? "application/octet-stream" };
}

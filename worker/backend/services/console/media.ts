import { MEDIA_MAX_BYTES, type MediaUpload } from "../../../../contract/console-catalogue";
import { imageKey, sniffImage } from "../shared/images";
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

// The sniffing is shared with shoppers' review photos (services/reviews/photos.ts).
export { sniffImage, type ImageFacts } from "../shared/images";

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
  const key = await imageKey(bytes, facts);
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

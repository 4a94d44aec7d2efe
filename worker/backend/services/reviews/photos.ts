import {
  REVIEW_PHOTO_MAX_BYTES,
  REVIEW_PHOTO_MAX_PIXELS,
  REVIEW_PHOTO_MAX_SIDE,
  REVIEW_PHOTOS_MAX,
  REVIEW_THUMB_MAX_SIDE,
  REVIEWS_PATHS,
  type ReviewPhoto,
} from "../../../../contract/reviews";
import { say } from "../../../../contract/server/i18n";
import type { Lang } from "../../env";
import { unprocessable } from "../../http";
import { msg } from "../../messages";
import { imageKey, sniffImage, type ImageFacts } from "../shared/images";

/**
 * Review photos (contract/reviews.ts). The browser sends each photo twice, resized: a display copy
 * (`photos`) and a thumbnail (`thumbs`, same order); a form without JavaScript sends `photos`
 * only, and each is then its own thumbnail. Every file is sniffed (services/shared/images.ts):
 * JPEG, PNG or WebP by its bytes, whatever its name or declared type, at most
 * REVIEW_PHOTO_MAX_BYTES, within the pixel limits (a thumbnail within REVIEW_THUMB_MAX_SIDE).
 * Each is stored in R2 (MEDIA) as `reviews/{key}`, the key being its content's hash, and served at
 * /backend/media/reviews/{key} (media.ts). Photos a review no longer uses are deleted from R2 once
 * no review uses them (an object may be shared: two reviews with the same picture).
 */

/** Where a photo is kept in R2: under its own prefix, beside staff uploads' bare keys. */
export const objectKey = (key: string) => `reviews/${key}`;
const BACKEND = "/backend";

/** A photo of a review as stored (review_photos). */
export interface PhotoRow {
  key: string;
  thumb_key: string | null;
  width: number;
  height: number;
}

export const presentPhoto = (p: PhotoRow): ReviewPhoto => ({
  key: p.key,
  url: `${BACKEND}${REVIEWS_PATHS.photo(p.key)}`,
  thumb: `${BACKEND}${REVIEWS_PATHS.photo(p.thumb_key ?? p.key)}`,
  width: p.width,
  height: p.height,
});

/** A checked file, ready to store. */
export interface CheckedImage {
  bytes: Uint8Array<ArrayBuffer>;
  facts: ImageFacts;
  key: string;
}

/** A new photo: its display copy and, when the form sent one, its thumbnail. */
export interface NewPhoto {
  photo: CheckedImage;
  thumb: CheckedImage | null;
}

const SAY = {
  type: msg("reviews.photos.type"),
  tooLarge: msg("reviews.photos.tooLarge"),
  tooManyPixels: msg("reviews.photos.tooManyPixels"),
  thumbTooLarge: msg("reviews.photos.thumbTooLarge"),
  thumbsCount: msg("reviews.photos.thumbsCount"),
  tooMany: msg("reviews.photos.tooMany"),
};

/** A file field of a form, without the empty part a file input sends when nothing was chosen. */
export function filesOf(form: FormData, field: string): File[] {
  return form
    .getAll(field)
    .filter((entry): entry is File => typeof entry !== "string" && !(entry.size === 0 && entry.name === ""));
}

/** What is wrong with one file, or null; `thumb` holds it to the thumbnail's size. */
async function checkImage(
  file: File,
  thumb: boolean,
): Promise<{ image: CheckedImage; problem: null } | { image: null; problem: keyof typeof SAY }> {
  if (file.size > REVIEW_PHOTO_MAX_BYTES) return { image: null, problem: "tooLarge" };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const facts = sniffImage(bytes);
  if (!facts) return { image: null, problem: "type" };
  const side = Math.max(facts.width, facts.height);
  if (thumb && side > REVIEW_THUMB_MAX_SIDE) return { image: null, problem: "thumbTooLarge" };
  if (side > REVIEW_PHOTO_MAX_SIDE || facts.width * facts.height > REVIEW_PHOTO_MAX_PIXELS)
    return { image: null, problem: "tooManyPixels" };
  return { image: { bytes, facts, key: await imageKey(bytes, facts) }, problem: null };
}

/**
 * Checks a form's new photos and thumbnails, `kept` photos being kept beside them: a 422 on
 * `photos` (or `thumbs`) names the first file refused and why, nothing stored.
 */
export async function checkNewPhotos(lang: Lang, photos: File[], thumbs: File[], kept: number): Promise<NewPhoto[]> {
  const refuse = (field: "photos" | "thumbs", problem: keyof typeof SAY, index?: number) => {
    const text = say(lang, SAY[problem], {
      max: REVIEW_PHOTOS_MAX,
      mb: REVIEW_PHOTO_MAX_BYTES / 1024 / 1024,
      side: problem === "thumbTooLarge" ? REVIEW_THUMB_MAX_SIDE : REVIEW_PHOTO_MAX_SIDE,
      n: (index ?? 0) + 1,
    });
    return unprocessable({ [field]: [text] });
  };
  if (photos.length + kept > REVIEW_PHOTOS_MAX) throw refuse("photos", "tooMany");
  if (thumbs.length && thumbs.length !== photos.length) throw refuse("thumbs", "thumbsCount");
  const out: NewPhoto[] = [];
  for (const [i, file] of photos.entries()) {
    const photo = await checkImage(file, false);
    if (!photo.image) throw refuse("photos", photo.problem, i);
    let thumb: CheckedImage | null = null;
    if (thumbs[i]) {
      const checked = await checkImage(thumbs[i], true);
      if (!checked.image) throw refuse("thumbs", checked.problem, i);
      thumb = checked.image;
    }
    out.push({ photo: photo.image, thumb });
  }
  return out;
}

/** Stores the checked files in R2 (before any row names them). */
export async function storePhotos(media: R2Bucket, photos: NewPhoto[]): Promise<void> {
  const images = photos.flatMap((p) => (p.thumb ? [p.photo, p.thumb] : [p.photo]));
  await Promise.all(
    images.map((image) =>
      media.put(objectKey(image.key), image.bytes, { httpMetadata: { contentType: image.facts.type } }),
    ),
  );
}

/**
 * Deletes from R2 the photos (and thumbnails) that no review uses any more, once the batch that let
 * go of them has committed. Best effort: an object left behind is harmless (nothing links to it).
 */
export async function forgetPhotos(db: D1Database, media: R2Bucket, keys: string[]): Promise<void> {
  const unique = [...new Set(keys)];
  if (!unique.length) return;
  try {
    const { results } = await db
      .prepare(
        `SELECT value AS key FROM json_each(?1)
         WHERE NOT EXISTS (SELECT 1 FROM review_photos WHERE key = value)
           AND NOT EXISTS (SELECT 1 FROM review_photos WHERE thumb_key = value)`,
      )
      .bind(JSON.stringify(unique))
      .all<{ key: string }>();
    if (results.length) await media.delete(results.map((r) => objectKey(r.key)));
  } catch (err) {
    console.warn(JSON.stringify({ level: "warn", event: "reviews.photo_delete_failed", error: String(err) }));
  }
}

/** A stored photo to serve, or null. */
export async function readReviewPhoto(
  media: R2Bucket,
  key: string,
): Promise<{ body: ReadableStream; type: string } | null> {
  const object = await media.get(objectKey(key));
  if (!object) return null;
  return { body: object.body, type: object.httpMetadata?.contentType ?? "application/octet-stream" };
}

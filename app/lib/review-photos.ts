/**
 * The sizes a review photo is drawn at in the browser before upload (components/reviews/
 * photo-resize.ts): apart from lib/reviews.ts, so product lists, which draw stars, carry none of it.
 */

/** The long side of a review photo's display copy, and of its thumbnail, in pixels. */
export const PHOTO_DISPLAY_MAX = 1600;
export const PHOTO_THUMB_MAX = 320;

/**
 * The size an image of `width` × `height` is drawn at so its long side is at most `max`: the
 * same proportions, whole pixels, never enlarged, never 0.
 */
export function fitWithin(width: number, height: number, max: number): { width: number; height: number } {
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round(height));
  const long = Math.max(w, h);
  if (long <= max) return { width: w, height: h };
  const scale = max / long;
  return {
    width: w >= h ? max : Math.max(1, Math.round(w * scale)),
    height: h > w ? max : Math.max(1, Math.round(h * scale)),
  };
}

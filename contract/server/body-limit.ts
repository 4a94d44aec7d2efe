import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { CSV_MAX_BYTES, MEDIA_MAX_BYTES } from "../console-catalogue-shapes";
import { REVIEW_PHOTO_MAX_BYTES, REVIEW_PHOTOS_MAX } from "../reviews";

/**
 * The largest request body the commerce API takes (64 KiB: a checkout is a few hundred bytes).
 * The reference backend applies it to its own routes, and the edge to what it forwards to an
 * external backend, so a flood of large bodies stops at the edge either way. Three routes take
 * files: the console's image upload and products CSV, and a shopper's review with its photos
 * (each photo and its thumbnail), each with its own bound (room past the files' own limit, so the
 * route can answer a clear 422 naming that limit).
 */
const LIMIT = 64 * 1024;
const FILE_ROUTES: [RegExp, number][] = [
  [/\/admin\/media$/, MEDIA_MAX_BYTES * 2],
  [/\/admin\/products\/import$/, CSV_MAX_BYTES + 64 * 1024],
  [/\/client\/reviews$/, REVIEW_PHOTOS_MAX * REVIEW_PHOTO_MAX_BYTES * 2 + 64 * 1024],
];

const limiter = (maxSize: number) =>
  bodyLimit({ maxSize, onError: (c) => c.json({ message: "Payload too large" }, 413) });

export const backendBodyLimit = (): MiddlewareHandler => {
  const small = limiter(LIMIT);
  const large = FILE_ROUTES.map(([path, max]) => [path, limiter(max)] as const);
  return (c, next) => (large.find(([path]) => path.test(c.req.path))?.[1] ?? small)(c, next);
};

/**
 * The field-data beacon's bound (POST /api/rum): a beacon is a few hundred bytes (ten
 * metrics at most), so 4 KiB refuses anything else before it is read.
 */
export const RUM_MAX_BYTES = 4 * 1024;
export const rumBodyLimit = (): MiddlewareHandler => limiter(RUM_MAX_BYTES);

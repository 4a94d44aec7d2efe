import { fitWithin, PHOTO_DISPLAY_MAX, PHOTO_THUMB_MAX } from "../../lib/review-photos";

/**
 * A review photo made ready in the browser before it is sent: decoded (turned upright by its EXIF
 * orientation), drawn at most PHOTO_DISPLAY_MAX pixels on its long side for display and
 * PHOTO_THUMB_MAX for the thumbnail, and encoded as WebP (JPEG where the browser cannot write
 * WebP). A phone's 12-megapixel photo of 4 MB leaves as a few hundred kilobytes, and the backend
 * never decodes an image (a Worker has no image library to do it with).
 */
export interface PreparedPhoto {
  display: Blob;
  thumb: Blob;
  name: string;
  width: number;
  height: number;
  /** An object URL of the thumbnail for the form's preview; revoke it when the photo goes. */
  preview: string;
}

const QUALITY = 0.85;

type Canvas = OffscreenCanvas | HTMLCanvasElement;

function canvasOf(width: number, height: number): Canvas {
  if (typeof OffscreenCanvas !== "undefined") return new OffscreenCanvas(width, height);
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

function blobOf(canvas: Canvas, type: string): Promise<Blob | null> {
  if ("convertToBlob" in canvas) return canvas.convertToBlob({ type, quality: QUALITY }).catch(() => null);
  return new Promise((resolve) => canvas.toBlob(resolve, type, QUALITY));
}

/** The bitmap drawn at `size` on white (a transparent PNG stays legible as JPEG), encoded. */
async function encode(bitmap: ImageBitmap, size: { width: number; height: number }): Promise<Blob> {
  const canvas = canvasOf(size.width, size.height);
  const context = canvas.getContext("2d") as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  if (!context) throw new Error("no 2d canvas");
  context.fillStyle = "#fff";
  context.fillRect(0, 0, size.width, size.height);
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = "high";
  context.drawImage(bitmap, 0, 0, size.width, size.height);
  // A browser that cannot encode WebP answers PNG (the default) instead: JPEG is smaller.
  const webp = await blobOf(canvas, "image/webp");
  if (webp && webp.type === "image/webp") return webp;
  const jpeg = await blobOf(canvas, "image/jpeg");
  if (!jpeg) throw new Error("the canvas could not be encoded");
  return jpeg;
}

/** Decodes and resizes one chosen file; throws when the file is not an image the browser can read. */
export async function preparePhoto(file: Blob, index: number): Promise<PreparedPhoto> {
  const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  try {
    const size = fitWithin(bitmap.width, bitmap.height, PHOTO_DISPLAY_MAX);
    const display = await encode(bitmap, size);
    const thumb = await encode(bitmap, fitWithin(bitmap.width, bitmap.height, PHOTO_THUMB_MAX));
    const extension = display.type === "image/webp" ? "webp" : "jpg";
    return {
      display,
      thumb,
      name: `photo-${index + 1}.${extension}`,
      width: size.width,
      height: size.height,
      preview: URL.createObjectURL(thumb),
    };
  } finally {
    bitmap.close();
  }
}

import { useState } from "react";
import { useT } from "../lib/use-locale";

export const GALLERY_SIZE = 560;
const THUMB_SIZE = 72;

/**
 * The product's images: the main one (the page's LCP image, so fetched with high priority) and a
 * row of thumbnails that pick it. Every image carries its size, so nothing shifts as they load.
 */
export function Gallery({ images, name }: { images: string[]; name: string }) {
  const t = useT();
  const [current, setCurrent] = useState(0);
  const list = images.length > 0 ? images : [];
  const main = list[Math.min(current, list.length - 1)];
  if (!main) return null;
  return (
    <section className="gallery" aria-label={t("product.gallery")}>
      <div className="gallery__main">
        <img
          src={main}
          alt={name}
          width={GALLERY_SIZE}
          height={GALLERY_SIZE}
          decoding="async"
          fetchPriority={current === 0 ? "high" : undefined}
          loading="eager"
        />
      </div>
      {list.length > 1 ? (
        <ul className="gallery__thumbs" role="list">
          {list.map((src, i) => (
            <li key={`${i}-${src}`}>
              <button
                type="button"
                className="gallery__thumb"
                aria-pressed={i === current}
                aria-label={t("product.showImage", { n: i + 1 })}
                onClick={() => setCurrent(i)}
              >
                <img src={src} alt="" width={THUMB_SIZE} height={THUMB_SIZE} loading="lazy" decoding="async" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

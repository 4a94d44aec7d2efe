import { useEffect, useId, useRef } from "react";
import type { ReviewPhoto } from "../../../contract/reviews";
import { useT } from "../../lib/use-locale";

/**
 * A review's photos at display size in a modal dialog: the browser keeps focus inside it and
 * Escape closes it; focus starts on Close and goes back to the thumbnail that opened it. The
 * arrow keys and the two buttons step through the review's photos (mirrored in Arabic).
 */
export function PhotoViewer({
  photos,
  index,
  author,
  onIndex,
  onClose,
}: {
  photos: ReviewPhoto[];
  /** The photo shown; null when the viewer is closed. */
  index: number | null;
  author: string;
  onIndex: (index: number) => void;
  onClose: () => void;
}) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  const open = index !== null;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      closeRef.current?.focus();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);

  const photo = index === null ? undefined : photos[index];
  const count = photos.length;
  const step = (by: number) => {
    if (index !== null && count > 1) onIndex((index + by + count) % count);
  };
  const rtl = () => document.documentElement.dir === "rtl";

  return (
    <dialog
      ref={ref}
      className="photo-viewer"
      aria-labelledby={titleId}
      onClose={() => {
        if (open) onClose();
        const back = opener.current;
        opener.current = null;
        if (back instanceof HTMLElement) back.focus();
      }}
      onKeyDown={(e) => {
        if (e.key === "ArrowRight") step(rtl() ? -1 : 1);
        else if (e.key === "ArrowLeft") step(rtl() ? 1 : -1);
      }}
    >
      <div className="photo-viewer__bar">
        <h2 id={titleId} className="photo-viewer__title">
          {t("reviews.photos.viewerTitle", { n: (index ?? 0) + 1, count, author })}
        </h2>
        <button type="button" className="button button--ghost" ref={closeRef} onClick={onClose}>
          {t("reviews.photos.close")}
        </button>
      </div>
      {photo ? (
        <img
          className="photo-viewer__image"
          src={photo.url}
          alt={t("reviews.photos.alt", { n: (index ?? 0) + 1, author })}
          width={photo.width || undefined}
          height={photo.height || undefined}
          decoding="async"
        />
      ) : null}
      {count > 1 ? (
        <div className="photo-viewer__steps">
          <button type="button" className="button button--ghost" onClick={() => step(-1)}>
            <span aria-hidden="true" className="icon-flip">
              ‹
            </span>{" "}
            {t("reviews.photos.previous")}
          </button>
          <button type="button" className="button button--ghost" onClick={() => step(1)}>
            {t("reviews.photos.next")}{" "}
            <span aria-hidden="true" className="icon-flip">
              ›
            </span>
          </button>
        </div>
      ) : null}
    </dialog>
  );
}

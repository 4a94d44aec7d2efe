import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { REVIEW_REPORT_REASONS, type ReviewReportReason } from "../../../contract/reviews";
import { useT } from "../../lib/use-locale";

/**
 * "Report this review": a small modal dialog with the reasons as a radio group. Focus starts on
 * the first reason, Escape or Cancel closes it, and focus returns to the link that opened it.
 */
export function ReportDialog({
  open,
  busy,
  onSubmit,
  onClose,
}: {
  open: boolean;
  busy: boolean;
  onSubmit: (reason: ReviewReportReason) => void;
  onClose: () => void;
}) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const firstRef = useRef<HTMLInputElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  const name = useId();
  const [reason, setReason] = useState<ReviewReportReason | "">("");
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      setReason("");
      setMissing(false);
      dialog.showModal();
      firstRef.current?.focus();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason) {
      setMissing(true);
      firstRef.current?.focus();
      return;
    }
    onSubmit(reason);
  };

  return (
    <dialog
      ref={ref}
      className="review-dialog"
      aria-labelledby={titleId}
      onClose={() => {
        if (open) onClose();
        const back = opener.current;
        opener.current = null;
        if (back instanceof HTMLElement) back.focus();
      }}
    >
      <h2 id={titleId}>{t("reviews.report.title")}</h2>
      <form onSubmit={submit} noValidate>
        <fieldset
          className="review-dialog__reasons"
          aria-describedby={missing ? `${titleId}-error` : undefined}
          aria-invalid={missing || undefined}
        >
          <legend>{t("reviews.report.reason")}</legend>
          {REVIEW_REPORT_REASONS.map((r, i) => (
            <label key={r} className="review-dialog__reason">
              <input
                ref={i === 0 ? firstRef : undefined}
                type="radio"
                name={name}
                value={r}
                checked={reason === r}
                onChange={() => {
                  setReason(r);
                  setMissing(false);
                }}
              />{" "}
              {t(`reviews.report.reasons.${r}`)}
            </label>
          ))}
        </fieldset>
        {missing ? (
          <p id={`${titleId}-error`} className="field__error" role="alert">
            {t("reviews.report.pick")}
          </p>
        ) : null}
        <div className="review-dialog__actions">
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t("reviews.report.cancel")}
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {t("reviews.report.send")}
          </button>
        </div>
      </form>
    </dialog>
  );
}

import { useEffect, useId, useRef, type ReactNode } from "react";
import { useT } from "../../lib/use-locale";

/**
 * Confirmation before a destructive action: a modal <dialog>, so the browser traps focus inside,
 * Escape cancels, and focus returns to the button that opened it. Focus starts on Cancel, so a
 * stray Enter never confirms.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  danger = true,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  /** The refusing button's words where "Cancel" would be ambiguous (cancelling an order). */
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  danger?: boolean;
}) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      cancelRef.current?.focus();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="console-dialog" aria-labelledby={titleId} onClose={() => open && onCancel()}>
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className="console-dialog__actions">
        <button type="button" className="button button--ghost" ref={cancelRef} onClick={onCancel}>
          {cancelLabel ?? t("console.actions.cancel")}
        </button>
        <button type="button" className={danger ? "button button--danger" : "button"} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

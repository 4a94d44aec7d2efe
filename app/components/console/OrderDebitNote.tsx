import { useId, useState, type FormEvent } from "react";
import { readMoney } from "../../../contract/numbers";
import { useRouteAction } from "../form/useRouteAction";
import { useT } from "../../lib/use-locale";

/** The largest raise a debit note takes: a million riyals, in halalas (the backend's bound). */
const DEBIT_MAX = 100_000_000;

/**
 * Raising an order's total after its invoice (a charge agreed with the buyer and collected, such
 * as a redelivery fee): a debit note that names the invoice and why, which the shop stamps and
 * reports to ZATCA like the invoice. Managers and owners, on an order that has its invoice; the
 * note goes to the page's route action as its `debit-note` intent.
 */
export function OrderDebitNote() {
  const t = useT();
  const id = useId();
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [problems, setProblems] = useState<{ amount?: string; reason?: string }>({});
  const raising = useRouteAction();
  const server = (field: string) => raising.serverErrors.find((e) => e.type === field)?.message;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const reading = readMoney(amount, { min: 1, max: DEBIT_MAX });
    const next = {
      amount: reading.ok ? undefined : t("console.debitNote.amountInvalid"),
      reason: reason.trim() ? undefined : t("console.debitNote.reasonRequired"),
    };
    setProblems(next);
    if (!reading.ok || next.reason) return;
    void raising.submit(
      "debit-note",
      { amount: String(reading.value), reason: reason.trim() },
      {
        loading: t("console.saving"),
        success: () => t("console.debitNote.issued"),
        onDone: () => {
          setAmount("");
          setReason("");
        },
      },
    );
  };

  const amountError = problems.amount ?? server("amount");
  const reasonError = problems.reason ?? server("reason") ?? (server("amount") ? undefined : raising.serverMessage);
  return (
    <details className="console-panel console-order__wide" data-debit-note>
      <summary>{t("console.debitNote.title")}</summary>
      <p className="console-hint">{t("console.debitNote.lead")}</p>
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-amount`}>{t("console.debitNote.amount")}</label>
          <input
            id={`${id}-amount`}
            name="amount"
            inputMode="decimal"
            dir="ltr"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={amountError ? true : undefined}
            aria-describedby={amountError ? `${id}-amount-error` : undefined}
          />
          {amountError ? (
            <p id={`${id}-amount-error`} className="field__error" role="alert">
              {amountError}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={`${id}-reason`}>{t("console.debitNote.reason")}</label>
          <input
            id={`${id}-reason`}
            name="reason"
            dir="auto"
            maxLength={200}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? `${id}-reason-error` : undefined}
          />
          {reasonError ? (
            <p id={`${id}-reason-error`} className="field__error" role="alert">
              {reasonError}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button" disabled={raising.busy}>
          {t("console.debitNote.submit")}
        </button>
      </form>
    </details>
  );
}

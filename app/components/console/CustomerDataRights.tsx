import { useId, useState, type FormEvent } from "react";
import { useRevalidator } from "react-router";
import { exportFileName } from "../../../contract/pdpl";
import { downloadCustomerData, eraseCustomer } from "../../lib/api/pdpl";
import { browserApi } from "../../lib/api/browser";
import { ApiError } from "../../lib/api/errors";
import { saveFile } from "../../lib/console-files";
import { toast } from "../../client/toast";
import { useLocale, useT } from "../../lib/use-locale";

/**
 * A customer's PDPL requests, handled by staff (managers and owners; the backend checks): the
 * file of their data, and the account's erasure with the request as its reason. Both are audited.
 */
export function CustomerDataRights({ id }: { id: string }) {
  const t = useT();
  const locale = useLocale();
  const revalidator = useRevalidator();
  const fieldId = useId();
  const [reason, setReason] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const message = (e: unknown) =>
    e instanceof ApiError ? (e.errors.reason?.[0] ?? (e.message || t("errors.default"))) : t("errors.default");

  const download = async () => {
    try {
      saveFile(
        await downloadCustomerData(browserApi(locale), id),
        exportFileName(new Date().toISOString().slice(0, 10)),
      );
      toast.success(t("privacy.console.exported"));
    } catch (e) {
      toast.error(message(e));
    }
  };

  const erase = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError("");
    try {
      await eraseCustomer(browserApi(locale), id, reason);
      toast.success(t("privacy.console.erased"));
      setReason("");
      void revalidator.revalidate();
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="console-panel" aria-labelledby={`${fieldId}-title`}>
      <h2 id={`${fieldId}-title`}>{t("privacy.console.title")}</h2>
      <p className="console-hint">{t("privacy.console.lead")}</p>
      <p>
        <button type="button" className="button" onClick={() => void download()}>
          {t("privacy.console.export")}
        </button>
      </p>
      <form onSubmit={(e) => void erase(e)} className="form" noValidate>
        <div className="field">
          <label htmlFor={fieldId}>{t("privacy.console.reason")}</label>
          <textarea
            id={fieldId}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            rows={2}
            maxLength={500}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${fieldId}-error` : undefined}
          />
          {error ? (
            <p id={`${fieldId}-error`} className="field__error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button button--danger" disabled={busy}>
          {t("privacy.console.erase")}
        </button>
      </form>
    </section>
  );
}

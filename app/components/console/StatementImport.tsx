import { useEffect, useId, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { CARRIER_IDS, CARRIER_NAMES, type CarrierId } from "../../../contract/shipping";
import { toast } from "../../client/toast";
import { browserApi } from "../../lib/api/browser";
import { importStatement } from "../../lib/api/console-shipments";
import { ApiError } from "../../lib/api/errors";
import { useLocale, useT } from "../../lib/use-locale";

/**
 * A carrier's COD statement as CSV (Aramex has no API for it): chosen from a file, sent whole, and
 * refused whole when a row does not read, each bad row named by its line.
 */
export function StatementImport() {
  const t = useT();
  const locale = useLocale();
  const revalidator = useRevalidator();
  const carrierId = useId();
  const fileId = useId();
  const hintId = useId();
  const errorsRef = useRef<HTMLDivElement>(null);
  const [carrier, setCarrier] = useState<CarrierId>("aramex");
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  // The summary takes the focus once it is on screen, each time the errors change.
  useEffect(() => {
    if (errors.length) errorsRef.current?.focus();
  }, [errors]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!file) {
      setErrors([t("console.remittances.import.noFile")]);
      return;
    }
    setBusy(true);
    setErrors([]);
    try {
      const { data } = await importStatement(browserApi(locale), carrier, await file.text());
      toast.success(t("console.remittances.import.done", { rows: data.rows, recorded: data.recorded }));
      await revalidator.revalidate();
    } catch (err) {
      const lines =
        err instanceof ApiError ? (err.errors.csv ?? err.errors.file ?? [err.message]) : [t("error.generic")];
      setErrors(lines);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="console-panel" aria-labelledby="statement-import">
      <h2 id="statement-import">{t("console.remittances.import.title")}</h2>
      <p id={hintId} className="console-hint">
        {t("console.remittances.import.hint")}
      </p>
      <form className="form statement-import" onSubmit={(e) => void submit(e)} noValidate data-statement-import>
        {errors.length ? (
          <div ref={errorsRef} className="form__summary" role="alert" tabIndex={-1} data-statement-errors>
            <ul>
              {errors.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={carrierId}>{t("console.remittances.carrier")}</label>
          <select id={carrierId} value={carrier} onChange={(e) => setCarrier(e.target.value as CarrierId)}>
            {CARRIER_IDS.map((id) => (
              <option key={id} value={id}>
                {CARRIER_NAMES[id][locale]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={fileId}>{t("console.remittances.import.file")}</label>
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={hintId}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </div>
        <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
          {t("console.remittances.import.submit")}
        </button>
      </form>
    </section>
  );
}

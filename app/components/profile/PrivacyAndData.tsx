import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { useSetAtom } from "jotai";
import { CONSENT_PURPOSES, type ConsentPurpose, type ConsentState } from "../../../contract/consents";
import { BACKUP_DAYS, exportFileName, TAX_RECORD_YEARS } from "../../../contract/pdpl";
import { setConsent } from "../../lib/api/consents";
import { downloadMyData, eraseMyAccount, sendErasureCode } from "../../lib/api/pdpl";
import { browserApi } from "../../lib/api/browser";
import { ApiError } from "../../lib/api/errors";
import { saveFile } from "../../lib/console-files";
import { formatDate } from "../../lib/orders";
import { toast } from "../../client/toast";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";
import { currentUserAtom } from "../../state/user";

/**
 * "Privacy and your data" (PDPL): each consent with its exact wording and a checkbox that saves
 * at once (one click gives or withdraws it), the history of decisions, the export file, and the
 * account's deletion behind a dialog that asks for the password or a code again.
 */
export function PrivacyAndData({ initial }: { initial: ConsentState }) {
  const t = useT();
  const locale = useLocale();
  const [state, setState] = useState(initial);
  const [saving, setSaving] = useState<ConsentPurpose | null>(null);
  const [status, setStatus] = useState("");
  const [downloading, setDownloading] = useState(false);
  const [erasing, setErasing] = useState(false);

  const toggle = async (purpose: ConsentPurpose, granted: boolean) => {
    setSaving(purpose);
    setStatus("");
    try {
      const res = await setConsent(browserApi(locale), purpose, granted);
      setState(res.data);
      setStatus(t(granted ? "privacy.consentGiven" : "privacy.consentWithdrawn"));
    } catch (error) {
      toast.error(error instanceof ApiError && error.message ? error.message : t("errors.default"));
    } finally {
      setSaving(null);
    }
  };

  const download = async () => {
    setDownloading(true);
    try {
      const file = await downloadMyData(browserApi(locale));
      saveFile(file, exportFileName(new Date().toISOString().slice(0, 10)));
      toast.success(t("privacy.downloaded"));
    } catch (error) {
      toast.error(error instanceof ApiError && error.message ? error.message : t("errors.default"));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="privacy-data">
      <section className="card profile-card" aria-labelledby="privacy-consents">
        <h2 id="privacy-consents">{t("privacy.consentsTitle")}</h2>
        <p>{t("privacy.consentsLead")}</p>
        <ul className="privacy-data__consents">
          {CONSENT_PURPOSES.map((purpose) => (
            <li key={purpose} className="field field--check">
              <input
                id={`consent-${purpose}`}
                type="checkbox"
                checked={state.current[purpose]}
                disabled={saving !== null}
                onChange={(e) => void toggle(purpose, e.target.checked)}
              />
              <label htmlFor={`consent-${purpose}`}>
                <strong>{t(`privacy.purposes.${purpose}`)}</strong> {t(`consents.${purpose}`)}
              </label>
            </li>
          ))}
        </ul>
        <p role="status" className="privacy-data__status">
          {status}
        </p>
        <h3>{t("privacy.historyTitle")}</h3>
        {state.history.length === 0 ? (
          <p>{t("privacy.historyEmpty")}</p>
        ) : (
          <div className="privacy-data__table">
            <table>
              <caption className="visually-hidden">{t("privacy.historyTitle")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("privacy.history.when")}</th>
                  <th scope="col">{t("privacy.history.what")}</th>
                  <th scope="col">{t("privacy.history.answer")}</th>
                  <th scope="col">{t("privacy.history.lang")}</th>
                  <th scope="col">{t("privacy.history.source")}</th>
                </tr>
              </thead>
              <tbody>
                {state.history.map((r, i) => (
                  <tr key={`${r.created_at}-${i}`}>
                    <td>{formatDate(r.created_at, locale, true)}</td>
                    <td lang={r.lang} dir={r.lang === "ar" ? "rtl" : "ltr"}>
                      {r.wording}
                    </td>
                    <td>{t(r.granted ? "privacy.history.granted" : "privacy.history.withdrawn")}</td>
                    <td>{t(`privacy.languages.${r.lang}`)}</td>
                    <td>{t(`privacy.sources.${r.source}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="card profile-card" aria-labelledby="privacy-export">
        <h2 id="privacy-export">{t("privacy.exportTitle")}</h2>
        <p>{t("privacy.exportLead")}</p>
        <button type="button" className="button" onClick={() => void download()} disabled={downloading}>
          {t("privacy.download")}
        </button>
      </section>

      <section className="card profile-card" aria-labelledby="privacy-delete">
        <h2 id="privacy-delete">{t("privacy.deleteTitle")}</h2>
        <p>{t("privacy.deleteLead")}</p>
        <p>{t("privacy.deleteKept", { years: TAX_RECORD_YEARS, days: BACKUP_DAYS })}</p>
        <button type="button" className="button button--danger" onClick={() => setErasing(true)}>
          {t("privacy.delete")}
        </button>
      </section>
      <EraseDialog open={erasing} onClose={() => setErasing(false)} />
    </div>
  );
}

/**
 * The deletion's confirmation: a modal dialog (focus starts on the password, Escape or Cancel
 * closes it and focus returns to the button) asking for the password, or a code sent on request.
 */
function EraseDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const setUser = useSetAtom(currentUserAtom);
  const ref = useRef<HTMLDialogElement>(null);
  const firstRef = useRef<HTMLInputElement>(null);
  const opener = useRef<Element | null>(null);
  const id = useId();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [codeSent, setCodeSent] = useState(false);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      setPassword("");
      setCode("");
      setError("");
      dialog.showModal();
      firstRef.current?.focus();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);

  const askCode = async () => {
    setError("");
    try {
      const res = await sendErasureCode(browserApi(locale));
      setCodeSent(true);
      toast.success(res.message || t("privacy.codeSent"));
    } catch (e) {
      setError(e instanceof ApiError && e.message ? e.message : t("errors.default"));
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password && !code) {
      setError(t("privacy.proofMissing"));
      firstRef.current?.focus();
      return;
    }
    setBusy(true);
    setError("");
    try {
      await eraseMyAccount(browserApi(locale), password ? { password } : { code: code.trim() });
      // The account is gone: this tab's identity and the own-server session go with it.
      await (await import("../../lib/identity")).signOut(locale);
      setUser(null);
      ref.current?.close();
      toast.success(t("privacy.deleted"));
      await navigate(to("/"), { replace: true });
      void revalidator.revalidate();
    } catch (e) {
      const fields = e instanceof ApiError ? e.errors : {};
      setError(
        fields.password?.[0] ??
          fields.code?.[0] ??
          (e instanceof ApiError && e.message ? e.message : t("errors.default")),
      );
      firstRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={ref}
      className="privacy-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-lead`}
      onClose={() => {
        if (open) onClose();
        const back = opener.current;
        opener.current = null;
        if (back instanceof HTMLElement) back.focus();
      }}
    >
      <h2 id={`${id}-title`}>{t("privacy.confirmTitle")}</h2>
      <p id={`${id}-lead`}>{t("privacy.confirmLead")}</p>
      <form onSubmit={(e) => void submit(e)} noValidate className="form">
        <div className="field">
          <label htmlFor={`${id}-password`}>{t("privacy.password")}</label>
          <input
            ref={firstRef}
            id={`${id}-password`}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            dir="auto"
          />
        </div>
        <p>
          <button type="button" className="button button--link" onClick={() => void askCode()}>
            {t("privacy.sendCode")}
          </button>
        </p>
        {codeSent ? (
          <div className="field">
            <label htmlFor={`${id}-code`}>{t("privacy.code")}</label>
            <input
              id={`${id}-code`}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              dir="ltr"
            />
          </div>
        ) : null}
        {error ? (
          <p id={`${id}-error`} className="field__error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="form__actions">
          <button type="submit" className="button button--danger" disabled={busy}>
            {t("privacy.confirmDelete")}
          </button>
          <button type="button" className="button" onClick={() => ref.current?.close()}>
            {t("privacy.cancel")}
          </button>
        </div>
      </form>
    </dialog>
  );
}

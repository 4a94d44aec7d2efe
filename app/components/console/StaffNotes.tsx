import { useId, useState, type FormEvent } from "react";
import { STAFF_NOTE_MAX, type StaffNote } from "../../../contract/console-orders";
import { useRouteAction } from "../form/useRouteAction";
import { formatDate } from "../../lib/orders";
import { useLocale, useT } from "../../lib/use-locale";

/**
 * Staff's internal notes on an order or a customer: who wrote what and when, and a box to add one.
 * Every staff role may add a note; shoppers never see them (the backend keeps them out of every
 * shopper answer). The note goes to the page's route action as its `note` intent.
 */
export function StaffNotes({ notes }: { notes: StaffNote[] }) {
  const t = useT();
  const locale = useLocale();
  const id = useId();
  const [body, setBody] = useState("");
  const [empty, setEmpty] = useState(false);
  const adding = useRouteAction();
  const error = empty ? t("console.staffNotes.empty") : adding.serverMessage;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = body.trim();
    setEmpty(!text);
    if (!text) return;
    void adding.submit(
      "note",
      { body: text },
      { loading: t("console.saving"), success: () => t("console.staffNotes.added"), onDone: () => setBody("") },
    );
  };

  return (
    <section
      className="console-panel console-order__wide console-notes"
      aria-labelledby={`${id}-title`}
      data-staff-notes
    >
      <h2 id={`${id}-title`}>{t("console.staffNotes.title")}</h2>
      <p className="console-hint">{t("console.staffNotes.lead")}</p>
      {notes.length ? (
        <ol className="console-notes__list">
          {notes.map((n) => (
            <li key={n.id}>
              <p className="console-notes__meta">
                <bdi dir="ltr">{n.staff_email}</bdi> ·{" "}
                <time dateTime={n.created_at}>{formatDate(n.created_at, locale, true)}</time>
              </p>
              <p className="console-notes__body" dir="auto">
                {n.body}
              </p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="console-hint">{t("console.staffNotes.none")}</p>
      )}
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-body`}>{t("console.staffNotes.label")}</label>
          <textarea
            id={`${id}-body`}
            name="body"
            rows={3}
            dir="auto"
            maxLength={STAFF_NOTE_MAX}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
          {error ? (
            <p id={`${id}-error`} className="field__error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button" disabled={adding.busy}>
          {t("console.staffNotes.add")}
        </button>
      </form>
    </section>
  );
}

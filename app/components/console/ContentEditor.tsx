import { useForm } from "@modular-forms/react";
import { useMemo, useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { Link } from "../../lib/link";
import { latinDigits } from "../../../contract/inputs";
import { readMoney } from "../../../contract/numbers";
import { toast } from "../../client/toast";
import { browserApi } from "../../lib/api/browser";
import { handleBrowserError } from "../../lib/browser-errors";
import type { Api, Envelope } from "../../lib/api/client";
import { ApiError } from "../../lib/api/errors";
import { FORM_OPTIONS, formRules, type Validator } from "../../lib/forms";
import { numberRule } from "../../lib/input-rules";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";
import { FormErrors } from "../form/FormErrors";
import { SubmitButton } from "../form/SubmitButton";
import { TextField } from "../form/TextField";
import { useFormSubmit } from "../form/useFormSubmit";
import { ConfirmDialog } from "./ConfirmDialog";

/** One input of a console record's form; its name is the API's field name, so 422s land on it. */
export interface EditorField {
  name: string;
  /** "money": riyals with up to two decimals, read into halalas by `moneyOf` (contract/numbers.ts). */
  kind?: "text" | "multiline" | "number" | "money" | "select";
  required?: boolean;
  max?: number;
  hint?: string;
  rows?: number;
  options?: { value: string; label: string }[];
  /** Slugs, numbers and icons are written left to right in both languages. */
  dir?: "ltr" | "rtl";
}

/** The form's rows: an English/Arabic pair side by side, or a few single fields in a grid. */
export type EditorRow = { pair: [EditorField, EditorField] } | { fields: EditorField[] };

export type EditorValues = Record<string, string>;

/**
 * The console's form for a bilingual record (category, brand, service, content page): English and
 * Arabic side by side (the Arabic input right to left), the shop's validation messages, server
 * field errors on their inputs, and a confirmed delete.
 */
export function ContentEditor({
  rows,
  initial,
  isNew,
  listPath,
  strings,
  save,
  remove,
}: {
  rows: EditorRow[];
  initial: EditorValues;
  isNew: boolean;
  /** Where the list is, without the locale: the page goes back there after a delete. */
  listPath: string;
  strings: { title: string; back: string; saved: string; created: string; deleteTitle: string; deleteBody: string };
  save: (api: Api, values: EditorValues) => Promise<Envelope<{ id: number }>>;
  remove?: (api: Api) => Promise<unknown>;
}) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const rules = useMemo(() => formRules(t), [t]);
  const [deleting, setDeleting] = useState(false);
  const [form, { Form, Field }] = useForm<EditorValues>({ ...FORM_OPTIONS, initialValues: initial });
  const { serverErrors, serverMessage, run } = useFormSubmit(form);
  const label = (name: string) => t(`console.fields.${name}`);
  const fields = rows.flatMap((r) => ("pair" in r ? r.pair : r.fields));
  const labels = Object.fromEntries(fields.map((f) => [f.name, label(f.name)]));

  const onSubmit = async (values: EditorValues) => {
    const saved = await run(
      t("console.saving"),
      () => save(browserApi(locale), values),
      () => (isNew ? strings.created : strings.saved),
    );
    if (!saved) return;
    if (isNew) await navigate(to(`${listPath}/${saved.data.id}`), { replace: true });
    else await revalidator.revalidate();
  };

  const onDelete = async () => {
    if (!remove) return;
    const id = toast.loading(t("console.saving"));
    try {
      const done = await remove(browserApi(locale));
      toast.success((done as { message?: string } | undefined)?.message ?? t("console.actions.delete"), { id });
      await navigate(to(listPath), { replace: true });
    } catch (error) {
      toast.dismiss(id);
      // Refused because something still uses it (409): the backend's reason is the whole message.
      if (error instanceof ApiError && error.status === 409) toast.error(error.message);
      else handleBrowserError(error, locale, (path) => void navigate(path));
    }
  };

  const validators = (f: EditorField): Validator[] => [
    ...(f.required ? [rules.required(label(f.name))] : []),
    ...(f.kind === "number" ? [rules.number(label(f.name))] : []),
    ...(f.kind === "money" ? [numberRule(t, label(f.name), { decimals: 2, min: 0 })] : []),
    ...(f.max ? [rules.maxLength(label(f.name), f.max)] : []),
  ];

  const input = (f: EditorField) => (
    <Field key={f.name} name={f.name} validate={validators(f)}>
      {(field, props) =>
        f.kind === "select" ? (
          <div className="field">
            <label htmlFor={`f-${f.name}`}>{label(f.name)}</label>
            <select {...props} id={`f-${f.name}`} value={field.value.value ?? ""}>
              {(f.options ?? []).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <TextField
            form={form}
            field={field}
            props={props}
            label={label(f.name)}
            hint={f.hint}
            multiline={f.kind === "multiline"}
            rows={f.rows}
            dir={f.dir ?? (f.name.endsWith("_ar") ? "rtl" : f.name.endsWith("_en") ? "ltr" : undefined)}
            lang={f.name.endsWith("_ar") ? "ar" : f.name.endsWith("_en") ? "en" : undefined}
            inputMode={f.kind === "number" ? "numeric" : f.kind === "money" ? "decimal" : undefined}
            autoComplete="off"
            required={f.required}
          />
        )
      }
    </Field>
  );

  return (
    <>
      <p>
        <Link to={to(listPath)}>{strings.back}</Link>
      </p>
      <div className="console-titlebar">
        <h1>{strings.title}</h1>
        {remove ? (
          <button type="button" className="button button--danger" onClick={() => setDeleting(true)}>
            {t("console.actions.delete")}
          </button>
        ) : null}
      </div>
      <section className="console-panel" aria-label={strings.title}>
        <Form className="form content-form" onSubmit={onSubmit} shouldFocus={false}>
          <FormErrors
            form={form}
            messages={rules.messages}
            serverErrors={serverErrors}
            serverMessage={serverMessage}
            labels={labels}
          />
          {rows.map((r, i) =>
            "pair" in r ? (
              <div key={i} className="console-bilingual">
                {r.pair.map(input)}
              </div>
            ) : (
              <div key={i} className="console-grid">
                {r.fields.map(input)}
              </div>
            ),
          )}
          <SubmitButton>{isNew ? t("console.actions.create") : t("console.actions.save")}</SubmitButton>
        </Form>
      </section>
      {remove ? (
        <ConfirmDialog
          open={deleting}
          title={strings.deleteTitle}
          confirmLabel={t("console.actions.delete")}
          onCancel={() => setDeleting(false)}
          onConfirm={() => {
            setDeleting(false);
            void onDelete();
          }}
        >
          <p>{strings.deleteBody}</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/** What was typed as a whole number (Arabic-Indic digits read as digits); empty is 0. */
export function wholeOf(text: string | undefined): number {
  const latin = latinDigits((text ?? "").trim());
  return latin === "" ? 0 : Number(latin);
}

/** What was typed as riyals ("٢٩٩٫٥٠", "1,299.50") in halalas, exactly; empty (or unreadable) is 0. */
export function moneyOf(text: string | undefined): number {
  const reading = readMoney(text ?? "");
  return reading.ok ? reading.value : 0;
}

/** One feature a line. */
export const linesOf = (text: string | undefined) =>
  (text ?? "")
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);

import { useForm, type FieldElementProps, type FieldStore } from "@modular-forms/react";
import { useSignals } from "@preact/signals-react/runtime";
import { useMemo, type ReactNode } from "react";
import { useRevalidator } from "react-router";
import type { Api, Envelope } from "../../lib/api/client";
import { ApiError } from "../../lib/api/errors";
import { browserApi } from "../../lib/api/browser";
import { FORM_OPTIONS, formRules, type Validator } from "../../lib/forms";
import { useLocale, useT } from "../../lib/use-locale";
import { FormErrors } from "../form/FormErrors";
import { SubmitButton } from "../form/SubmitButton";
import { fieldId, TextField } from "../form/TextField";
import { useFormSubmit } from "../form/useFormSubmit";

/** One input of a settings section; its name is the API's field name (dots written `__`). */
export interface SettingsField {
  name: string;
  label: string;
  hint?: ReactNode;
  required?: boolean;
  multiline?: boolean;
  /** Numbers, codes and addresses of the web are written left to right in both languages. */
  dir?: "ltr" | "rtl";
  lang?: "en" | "ar";
  inputMode?: "decimal" | "numeric";
  max?: number;
  /** The field's own check, after required and length: answers a message, or "" when fine. */
  check?: (value: string) => string;
  /** A choice among these values (a select) instead of typed text. */
  options?: { value: string; label: string }[];
}

/** A labelled select of a settings form (its value is one of the options). */
function SelectField({
  id,
  label,
  hint,
  field,
  options,
  props,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  field: FieldStore<SettingsFormValues, string>;
  options: { value: string; label: string }[];
  props: FieldElementProps<SettingsFormValues, string>;
}) {
  useSignals();
  const value = field.value.value ?? "";
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="field__control">
        <select
          id={id}
          name={props.name}
          value={value}
          ref={props.ref}
          onChange={props.onChange}
          onBlur={props.onBlur}
          aria-describedby={hintId}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A row of the form: English and Arabic side by side, or a few fields in a grid; an optional heading. */
export interface SettingsRow {
  heading?: string;
  layout: "bilingual" | "grid";
  fields: SettingsField[];
}

export type SettingsFormValues = Record<string, string>;

/** The form's name for an API field: modular-forms reads a dot as nesting. */
export const formName = (apiName: string) => apiName.replaceAll(".", "__");

/**
 * One section of the settings page: its own form and save button, the shop's validation messages
 * per field, a 422's field errors on their inputs, and a confirmation once saved.
 */
export function SettingsForm<I>({
  id,
  title,
  intro,
  rows,
  initial,
  toInput,
  save,
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  rows: SettingsRow[];
  initial: SettingsFormValues;
  /** What the API takes, from what was typed (the fields' checks have passed). */
  toInput: (values: SettingsFormValues) => I;
  save: (api: Api, input: I) => Promise<Envelope<unknown>>;
}) {
  const t = useT();
  const locale = useLocale();
  const revalidator = useRevalidator();
  const rules = useMemo(() => formRules(t), [t]);
  const [form, { Form, Field }] = useForm<SettingsFormValues>({ ...FORM_OPTIONS, initialValues: initial });
  const { serverErrors, serverMessage, run } = useFormSubmit(form);
  const fields = rows.flatMap((r) => r.fields);
  const labels = Object.fromEntries(fields.map((f) => [formName(f.name), f.label]));

  const onSubmit = async (values: SettingsFormValues) => {
    const saved = await run(
      t("console.saving"),
      async () => {
        try {
          return await save(browserApi(locale), toInput(values));
        } catch (error) {
          // Field errors come back under the API's names (`paid.en.text`): put them on the inputs.
          if (error instanceof ApiError && error.status === 422)
            throw new ApiError(
              422,
              error.message,
              Object.fromEntries(Object.entries(error.errors).map(([k, v]) => [formName(k), v])),
              error.body,
            );
          throw error;
        }
      },
      () => t("console.settings.saved"),
    );
    if (saved) await revalidator.revalidate();
  };

  const validators = (f: SettingsField): Validator[] => [
    ...(f.required ? [rules.required(f.label)] : []),
    ...(f.max ? [rules.maxLength(f.label, f.max)] : []),
    ...(f.check ? [(value: string | null | undefined) => f.check!((value ?? "").trim())] : []),
  ];

  return (
    <section className="console-panel settings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {intro ? <p className="console-hint">{intro}</p> : null}
      <Form className="form" onSubmit={onSubmit} shouldFocus={false}>
        <FormErrors
          form={form}
          messages={rules.messages}
          serverErrors={serverErrors}
          serverMessage={serverMessage}
          labels={labels}
          idPrefix={id}
        />
        {rows.map((row, i) => (
          <fieldset key={i} className="settings-row">
            {row.heading ? <legend>{row.heading}</legend> : null}
            <div className={row.layout === "bilingual" ? "console-bilingual" : "console-grid"}>
              {row.fields.map((f) => (
                <Field key={f.name} name={formName(f.name)} validate={validators(f)}>
                  {(field, props) =>
                    f.options ? (
                      <SelectField
                        id={fieldId(field.name, id)}
                        label={f.label}
                        hint={f.hint}
                        field={field}
                        options={f.options}
                        props={props}
                      />
                    ) : (
                      <TextField
                        form={form}
                        field={field}
                        props={props}
                        label={f.label}
                        hint={f.hint}
                        idPrefix={id}
                        multiline={f.multiline}
                        rows={f.multiline ? 4 : undefined}
                        dir={f.dir}
                        lang={f.lang}
                        inputMode={f.inputMode}
                        autoComplete="off"
                        required={f.required}
                      />
                    )
                  }
                </Field>
              ))}
            </div>
          </fieldset>
        ))}
        <SubmitButton>{t("console.settings.save", { section: title })}</SubmitButton>
      </Form>
    </section>
  );
}

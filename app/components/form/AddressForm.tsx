import type { Address } from "../../../contract/addresses";
import { useForm } from "@modular-forms/react";
import { useSignals } from "@preact/signals-react/runtime";
import { useMemo } from "react";
import { FORM_OPTIONS, formRules, nameInputProps } from "../../lib/forms";
import { useT } from "../../lib/use-locale";
import { FormErrors } from "./FormErrors";
import { PhoneField } from "./PhoneField";
import { TextField } from "./TextField";
import { useFormSubmit } from "./useFormSubmit";
import { SubmitButton } from "./SubmitButton";

/** An address as the backend keeps it (DESIGN §6, /client/addresses): one definition, type-only. */
export type { Address } from "../../../contract/addresses";

export type AddressValues = {
  label: string;
  name: string;
  phone: string;
  city: string;
  district: string;
  street: string;
  building: string;
  postal_code: string;
  notes: string;
  is_default: boolean;
};

export function addressValues(a?: Partial<Address> | null): AddressValues {
  return {
    label: a?.label ?? "",
    name: a?.name ?? "",
    phone: a?.phone ?? "",
    city: a?.city ?? "",
    district: a?.district ?? "",
    street: a?.street ?? "",
    building: a?.building ?? "",
    postal_code: a?.postal_code ?? "",
    notes: a?.notes ?? "",
    is_default: a?.is_default ?? false,
  };
}

export interface AddressFormProps {
  initial?: Partial<Address> | null;
  /** Saves the values; answers true when saved (a failure is thrown to the form's handler). */
  onSave: (values: AddressValues) => Promise<unknown>;
  onCancel?: () => void;
  submitLabel: string;
  idPrefix: string;
  savingLabel: string;
}

/** The address form: every field labelled, the phone through PhoneInput, 422 answers on the fields. */
export function AddressForm({ initial, onSave, onCancel, submitLabel, idPrefix, savingLabel }: AddressFormProps) {
  const t = useT();
  const rules = useMemo(() => formRules(t), [t]);
  const [form, { Form, Field }] = useForm<AddressValues>({ ...FORM_OPTIONS, initialValues: addressValues(initial) });
  const { serverErrors, serverMessage, run } = useFormSubmit(form);
  const labels: Record<keyof AddressValues, string> = {
    label: t("address.label"),
    name: t("address.name"),
    phone: t("address.phone"),
    city: t("address.city"),
    district: t("address.district"),
    street: t("address.street"),
    building: t("address.building"),
    postal_code: t("address.postalCode"),
    notes: t("address.notes"),
    is_default: t("address.isDefault"),
  };
  const submit = async (values: AddressValues) => {
    await run(savingLabel, () => onSave(values));
  };
  const optional = t("form.optional");

  return (
    <Form className="form address-form" onSubmit={submit} shouldFocus={false} aria-label={submitLabel}>
      <FormErrors
        form={form}
        messages={rules.messages}
        serverErrors={serverErrors}
        serverMessage={serverMessage}
        labels={labels}
        idPrefix={idPrefix}
      />
      <div className="address-form__grid">
        <Field name="label" validate={[rules.maxLength(labels.label, 40)]}>
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={`${labels.label} (${optional})`}
              idPrefix={idPrefix}
              placeholder={t("address.labelPlaceholder")}
            />
          )}
        </Field>
        <Field name="name" validate={[rules.required(labels.name), rules.maxLength(labels.name, 100)]}>
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={labels.name}
              idPrefix={idPrefix}
              autoComplete="name"
              {...nameInputProps}
              required
            />
          )}
        </Field>
        <Field name="phone" validate={[rules.required(labels.phone), rules.phone()]}>
          {(field, props) => (
            <PhoneField
              form={form}
              field={field}
              props={props}
              label={labels.phone}
              idPrefix={idPrefix}
              defaultCountry="sa"
              required
            />
          )}
        </Field>
        <Field name="city" validate={[rules.required(labels.city), rules.maxLength(labels.city, 80)]}>
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={labels.city}
              idPrefix={idPrefix}
              autoComplete="address-level2"
              {...nameInputProps}
              required
            />
          )}
        </Field>
        <Field name="district" validate={[rules.required(labels.district), rules.maxLength(labels.district, 80)]}>
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={labels.district}
              idPrefix={idPrefix}
              autoComplete="address-level3"
              required
            />
          )}
        </Field>
        <Field name="street" validate={[rules.required(labels.street), rules.maxLength(labels.street, 200)]}>
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={labels.street}
              idPrefix={idPrefix}
              autoComplete="address-line1"
              required
            />
          )}
        </Field>
        <Field name="building" validate={[rules.maxLength(labels.building, 40)]}>
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={`${labels.building} (${optional})`}
              idPrefix={idPrefix}
              autoComplete="address-line2"
            />
          )}
        </Field>
        <Field name="postal_code" validate={[rules.pattern(/^[A-Za-z0-9 -]{3,10}$/, t("address.postalCodeInvalid"))]}>
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={`${labels.postal_code} (${optional})`}
              idPrefix={idPrefix}
              autoComplete="postal-code"
              dir="ltr"
              inputMode="numeric"
            />
          )}
        </Field>
      </div>
      <Field name="notes" validate={[rules.maxLength(labels.notes, 500)]}>
        {(field, props) => (
          <TextField
            form={form}
            field={field}
            props={props}
            label={`${labels.notes} (${optional})`}
            idPrefix={idPrefix}
            multiline
            rows={3}
          />
        )}
      </Field>
      <Field name="is_default" type="boolean">
        {(field, props) => (
          <DefaultCheckbox field={field} props={props} id={`${idPrefix}-is_default`} label={labels.is_default} />
        )}
      </Field>
      <div className="form__actions">
        <SubmitButton className="button button--primary">{submitLabel}</SubmitButton>
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel}>
            {t("address.cancel")}
          </button>
        ) : null}
      </div>
    </Form>
  );
}

function DefaultCheckbox({
  field,
  props,
  id,
  label,
}: {
  field: { value: { value: boolean | null | undefined } };
  props: {
    name: string;
    ref: (el: HTMLInputElement | null) => void;
    onChange: React.ChangeEventHandler<HTMLInputElement>;
    onBlur: React.FocusEventHandler<HTMLInputElement>;
  };
  id: string;
  label: string;
}) {
  useSignals();
  return (
    <div className="field field--check">
      <input
        id={id}
        type="checkbox"
        name={props.name}
        checked={Boolean(field.value.value)}
        ref={props.ref}
        onChange={props.onChange}
        onBlur={props.onBlur}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

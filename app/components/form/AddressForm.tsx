import type { Address } from "../../../contract/addresses";
import { getValue, setValue, useForm, type FormStore } from "@modular-forms/react";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useMemo, useRef } from "react";
import { buildingAsTyped } from "../../../contract/inputs";
import { FORM_OPTIONS, formRules, nameInputProps } from "../../lib/forms";
import { addressRules } from "../../lib/input-rules";
import { SHOP_COUNTRY } from "../../lib/phone-text";
import { useT } from "../../lib/use-locale";
import { FormErrors } from "./FormErrors";
import { PhoneField } from "./PhoneField";
import { TextField } from "./TextField";
import { DefaultCheckbox } from "./CheckField";
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
  short_address: string;
  building: string;
  additional_number: string;
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
    short_address: a?.short_address ?? "",
    building: a?.building ?? "",
    additional_number: a?.additional_number ?? "",
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
  useBuildingFromShortAddress(form);
  const labels: Record<keyof AddressValues, string> = {
    label: t("address.label"),
    name: t("address.name"),
    phone: t("address.phone"),
    city: t("address.city"),
    district: t("address.district"),
    street: t("address.street"),
    short_address: t("address.shortAddress"),
    building: t("address.building"),
    additional_number: t("address.additionalNumber"),
    postal_code: t("address.postalCode"),
    notes: t("address.notes"),
    is_default: t("address.isDefault"),
  };
  // The contract's address rules (contract/inputs.ts): the same limits the backend checks.
  const check = useMemo(
    () =>
      addressRules(t, {
        label: labels.label,
        name: labels.name,
        phone: labels.phone,
        city: labels.city,
        district: labels.district,
        street: labels.street,
        short_address: labels.short_address,
        building: labels.building,
        additional_number: labels.additional_number,
        postal_code: labels.postal_code,
        notes: labels.notes,
      }),
    // The labels follow `t`: they change only with the locale.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
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
        <Field name="label" validate={[check.label]}>
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
        <Field name="name" validate={[check.name]}>
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
        <Field name="phone" validate={[check.phone, rules.phone()]}>
          {(field, props) => (
            <PhoneField
              form={form}
              field={field}
              props={props}
              label={labels.phone}
              idPrefix={idPrefix}
              defaultCountry={SHOP_COUNTRY}
              required
            />
          )}
        </Field>
        <Field name="city" validate={[check.city]}>
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
        <Field name="district" validate={[check.district]}>
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
        <Field name="street" validate={[check.street]}>
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
        <Field name="short_address" validate={[check.short_address]}>
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={`${labels.short_address} (${optional})`}
              idPrefix={idPrefix}
              autoComplete="off"
              dir="ltr"
            />
          )}
        </Field>
        <Field name="building" validate={[check.building]}>
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={`${labels.building} (${optional})`}
              idPrefix={idPrefix}
              autoComplete="off"
              dir="ltr"
              inputMode="numeric"
            />
          )}
        </Field>
        <Field name="additional_number" validate={[check.additional_number]}>
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={`${labels.additional_number} (${optional})`}
              idPrefix={idPrefix}
              autoComplete="off"
              dir="ltr"
              inputMode="numeric"
            />
          )}
        </Field>
        <Field name="postal_code" validate={[check.postal_code]}>
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
      <Field name="notes" validate={[check.notes]}>
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

/** Fills the building number from the short address as it is typed, as checkout does (contract `buildingAsTyped`). */
function useBuildingFromShortAddress(form: FormStore<AddressValues>) {
  useSignals();
  const shortAddress = getValue(form, "short_address") ?? "";
  const before = useRef(shortAddress);
  useEffect(() => {
    const building = buildingAsTyped(getValue(form, "building") ?? "", before.current, shortAddress);
    before.current = shortAddress;
    if (building) setValue(form, "building", building);
  }, [form, shortAddress]);
}

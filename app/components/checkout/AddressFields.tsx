import { SHOP_COUNTRY } from "../../lib/phone-text";
import { fieldId } from "../form/TextField";
import { LazyPhoneInput } from "../LazyPhoneInput";
import { FieldError, FieldLabel, ID_PREFIX, inputProps, type FieldsState } from "./fields";

/** A new delivery address's fields: name, phone, city, district, street, and the national address's codes. */
export function AddressFields({ form }: { form: FieldsState }) {
  const invalid = (name: Parameters<FieldsState["errorOf"]>[0]) => (form.errorOf(name) ? "true" : undefined);
  return (
    <div className="checkout__grid">
      <div className="field" data-invalid={invalid("name")}>
        <FieldLabel form={form} name="name" required />
        <input {...inputProps(form, "name")} autoComplete="name" aria-required="true" />
        <FieldError form={form} name="name" />
      </div>
      <div className="field" data-invalid={invalid("phone")}>
        <FieldLabel form={form} name="phone" required />
        <LazyPhoneInput
          id={fieldId("phone", ID_PREFIX)}
          name="phone"
          value={form.values.phone}
          defaultCountry={SHOP_COUNTRY}
          onChange={(e164) => form.set("phone", e164)}
          invalid={Boolean(form.errorOf("phone"))}
          describedBy={form.errorOf("phone") ? `${fieldId("phone", ID_PREFIX)}-error` : undefined}
          required
        />
        <FieldError form={form} name="phone" />
      </div>
      <div className="field" data-invalid={invalid("city")}>
        <FieldLabel form={form} name="city" required />
        <input {...inputProps(form, "city")} autoComplete="address-level2" aria-required="true" />
        <FieldError form={form} name="city" />
      </div>
      <div className="field" data-invalid={invalid("district")}>
        <FieldLabel form={form} name="district" required />
        <input {...inputProps(form, "district")} autoComplete="address-level3" aria-required="true" />
        <FieldError form={form} name="district" />
      </div>
      <div className="field checkout__wide" data-invalid={invalid("street")}>
        <FieldLabel form={form} name="street" required />
        <input {...inputProps(form, "street")} autoComplete="address-line1" aria-required="true" />
        <FieldError form={form} name="street" />
      </div>
      <CodeField form={form} name="short_address" maxLength={12} autoCapitalize="characters" spellCheck={false} />
      <CodeField form={form} name="building" maxLength={6} inputMode="numeric" required={form.business} />
      <CodeField form={form} name="additional_number" maxLength={6} inputMode="numeric" />
      <CodeField
        form={form}
        name="postal_code"
        maxLength={7}
        inputMode="numeric"
        autoComplete="postal-code"
        required={form.business}
      />
      <div className="field checkout__wide" data-invalid={invalid("notes")}>
        <FieldLabel form={form} name="notes" />
        <textarea {...inputProps(form, "notes")} rows={2} />
        <FieldError form={form} name="notes" />
      </div>
    </div>
  );
}

/**
 * A code of the national address: optional (the building number and postal code are required of a
 * business buyer), read left to right in both languages, a little longer
 * than the code allows so that spaces and dashes typed with it fit (the schema drops them).
 */
function CodeField({
  form,
  name,
  autoComplete = "off",
  required = false,
  ...input
}: {
  form: FieldsState;
  name: "short_address" | "building" | "additional_number" | "postal_code";
  required?: boolean;
} & Pick<
  React.InputHTMLAttributes<HTMLInputElement>,
  "maxLength" | "inputMode" | "autoComplete" | "autoCapitalize" | "spellCheck"
>) {
  return (
    <div className="field" data-invalid={form.errorOf(name) ? "true" : undefined}>
      <FieldLabel form={form} name={name} required={required} />
      <input
        {...inputProps(form, name)}
        {...input}
        autoComplete={autoComplete}
        dir="ltr"
        aria-required={required || undefined}
      />
      <FieldError form={form} name={name} />
    </div>
  );
}

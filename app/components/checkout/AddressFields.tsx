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
      <div className="field" data-invalid={invalid("short_address")}>
        <FieldLabel form={form} name="short_address" />
        <input
          {...inputProps(form, "short_address")}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={12}
          dir="ltr"
        />
        <FieldError form={form} name="short_address" />
      </div>
      <div className="field" data-invalid={invalid("building")}>
        <FieldLabel form={form} name="building" />
        <input {...inputProps(form, "building")} autoComplete="off" inputMode="numeric" maxLength={6} dir="ltr" />
        <FieldError form={form} name="building" />
      </div>
      <div className="field" data-invalid={invalid("additional_number")}>
        <FieldLabel form={form} name="additional_number" />
        <input
          {...inputProps(form, "additional_number")}
          autoComplete="off"
          inputMode="numeric"
          maxLength={6}
          dir="ltr"
        />
        <FieldError form={form} name="additional_number" />
      </div>
      <div className="field" data-invalid={invalid("postal_code")}>
        <FieldLabel form={form} name="postal_code" />
        <input
          {...inputProps(form, "postal_code")}
          autoComplete="postal-code"
          inputMode="numeric"
          maxLength={7}
          dir="ltr"
        />
        <FieldError form={form} name="postal_code" />
      </div>
      <div className="field checkout__wide" data-invalid={invalid("notes")}>
        <FieldLabel form={form} name="notes" />
        <textarea {...inputProps(form, "notes")} rows={2} />
        <FieldError form={form} name="notes" />
      </div>
    </div>
  );
}

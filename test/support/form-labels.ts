import ar from "../../locales/ar.json";
import en from "../../locales/en.json";
import { registerMessages, translator } from "../../app/lib/i18n";

// The storefront's words in both languages for tests of its form rules, and the labels those
// tests give the delivery-address fields (the messages name a field by its label).

registerMessages("en", en);
registerMessages("ar", ar);
export const tEn = translator("en");
export const tAr = translator("ar");

export const ADDRESS_LABELS = {
  name: "Full name",
  phone: "Mobile",
  city: "City",
  district: "District",
  street: "Street",
  short_address: "Short address",
  building: "Building number",
  additional_number: "Additional number",
  postal_code: "Postal code",
  notes: "Notes",
};

/** The checkout form's labels: the delivery address's, a guest's email and a business buyer's fields. */
export const CHECKOUT_LABELS = {
  ...ADDRESS_LABELS,
  email: "Email",
  buyer_company: "Company name",
  buyer_vat_number: "VAT number",
};

// What a shopper may send, as one valibot schema per input with its limits.
// The storefront's forms, the reference backend's routes and the own server all build their
// checks from these, so a value one of them accepts the others accept too.
//
// The schemas take their messages from the caller (`InputMessages`): the forms speak with the
// visitor's locale and the form's own labels, the edge answers in the request's language
// (contract/server/input-messages.ts). Part of the contract (DESIGN §6, §10): imports only valibot.

import * as v from "valibot";
import { latinDigits } from "./digits";
import type { ConsoleField } from "./console";
import { LIMITS } from "./limits";
import type { NumberProblem, NumberRules } from "./numbers";

/** Fields whose messages the callers word: each names the field the way its form labels it. */
export type InputField =
  | "label"
  | "name"
  | "email"
  | "phone"
  | "city"
  | "district"
  | "street"
  | "building"
  | "postal_code"
  | "additional_number"
  | "short_address"
  | "notes"
  | "is_default"
  | "code"
  | "subject"
  | "message"
  | "product_id"
  | "variant_id"
  | "quantity"
  | "address_id"
  | "idempotency_key"
  | "shipping_method"
  | "payment_method"
  | "mobile"
  | "otp"
  | "iban"
  | "iban_name"
  | "group"
  | "slugs"
  | "topic"
  | "token"
  | "lines"
  | "buyer_company"
  | "buyer_vat_number"
  | "product"
  | "question"
  | "answer"
  | "channel"
  // A consent to messages (contract/consents.ts).
  | "purpose"
  | "granted"
  // Re-proving the shopper before their account is erased (contract/pdpl.ts).
  | "password"
  // A cart reminder's answer at checkout (contract/cart-reminders.ts).
  | "consent"
  // A product review (contract/reviews.ts).
  | "rating"
  | "title"
  | "body"
  | "review_lang"
  | "author_name"
  | "photos"
  | "thumbs"
  | "keep_photos"
  | "report_reason"
  | "reply"
  | ConsoleField;

export interface InputMessages {
  required(field: InputField): string;
  minLength(field: InputField, min: number): string;
  maxLength(field: InputField, max: number): string;
  /** The value has the wrong form: not an email, a phone number, a postal code, one of the choices… */
  invalid(field: InputField): string;
  /**
   * A number the field could not read, saying why (contract/numbers.ts): "Up to 2 decimals", not
   * "is not valid". `rules.decimals` is 2 for an amount in riyals, 0 for a count; bounds are in
   * halalas or items. Without it, `invalid` is said.
   */
  number?(field: InputField, problem: Exclude<NumberProblem, "empty">, rules: NumberRules): string;
}

export { latinDigits };

/** A phone number as typed, reduced to its digits (and a leading plus). */
export function normalizePhone(text: string): string {
  return latinDigits(text).replace(/[\s\-().]/g, "");
}

/**
 * A Saudi mobile number in the national form STC Pay and carriers take (05XXXXXXXX), from what a
 * shopper types: +966 5…, 00966 5…, 966 5…, 5… or 05…, in either digit set; null for anything
 * that is not a Saudi mobile (they all begin with 5 after the country code).
 */
export function saudiMobile(text: string): string | null {
  const digits = normalizePhone(text).replace(/^\+/, "");
  const national = /^(?:00966|966|0)?(5\d{8})$/.exec(digits);
  return national ? `0${national[1]}` : null;
}

/**
 * A Saudi IBAN as a bank transfer takes it ("SA0380000000608010167519"), from what a shopper
 * types (spaces, lower case, Arabic-Indic digits); null unless it is `SA` with 22 digits whose
 * check digits hold (ISO 13616: the number, its first four characters moved to its end and its
 * letters read as 10..35, leaves 1 when divided by 97).
 */
export function saudiIban(text: string): string | null {
  const iban = latinDigits(text).replace(/[\s-]/g, "").toUpperCase();
  if (!/^SA\d{22}$/.test(iban)) return null;
  const moved = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of moved) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1 ? iban : null;
}

/** An IBAN as staff who may not see contact data read it: the country, then the last four digits. */
export const maskIban = (iban: string) =>
  `${iban.slice(0, 2)}${"•".repeat(Math.max(0, iban.length - 6))}${iban.slice(-4)}`;

/**
 * A Saudi number's national significant digits (the nine after +966 or the leading 0), from any
 * form it was typed in: how providers and their test rules compare phone numbers.
 */
export const saudiNationalDigits = (phone: string) => latinDigits(phone).replace(/\D/g, "").slice(-9);

/** A contact number for a delivery or a message: national or international, 7 to 15 digits. */
export const CONTACT_PHONE = /^\+?\d{7,15}$/;
/** An account's phone: E.164 (what the storefront's phone input sends). */
export const E164 = /^\+[1-9]\d{7,14}$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// The Saudi national address (SPL): a 4-digit building number, a 5-digit postal code, a 4-digit
// additional number, and the short address that stands for them all: 4 letters (region, branch,
// division) then the building number, "RRRD2929".
export const BUILDING_NUMBER = /^\d{4}$/;
export const POSTAL_CODE = /^\d{5}$/;
export const ADDITIONAL_NUMBER = /^\d{4}$/;
export const SHORT_ADDRESS = /^[A-Z]{4}\d{4}$/;
export const OTP_CODE = /^\d{6}$/;
/** A Saudi VAT registration number: 15 digits, the first and the last a 3. */
export const VAT_NUMBER = /^3\d{13}3$/;

/** A text the shopper must fill: trimmed, 1 (or `min`) to `max` characters. */
function requiredText(m: InputMessages, field: InputField, max: number, min = 1) {
  return v.pipe(
    v.optional(v.string(m.required(field)), ""),
    v.trim(),
    v.nonEmpty(m.required(field)),
    v.minLength(min, m.minLength(field, min)),
    v.maxLength(max, m.maxLength(field, max)),
  );
}

/** A text the shopper may leave empty: trimmed, at most `max` characters; empty reads as null. */
function optionalText(m: InputMessages, field: InputField, max: number) {
  return v.optional(
    v.nullable(
      v.pipe(
        v.string(m.invalid(field)),
        v.trim(),
        v.maxLength(max, m.maxLength(field, max)),
        v.transform((s) => (s === "" ? null : s)),
      ),
    ),
    null,
  );
}

/** An email address, trimmed and lower-cased. */
export function emailField(m: InputMessages) {
  return v.pipe(
    v.optional(v.string(m.required("email")), ""),
    v.trim(),
    v.toLowerCase(),
    v.nonEmpty(m.required("email")),
    v.maxLength(LIMITS.email, m.maxLength("email", LIMITS.email)),
    v.regex(EMAIL, m.invalid("email")),
  );
}

function contactPhone(m: InputMessages) {
  return v.pipe(
    v.optional(v.string(m.required("phone")), ""),
    v.transform(normalizePhone),
    v.nonEmpty(m.required("phone")),
    v.regex(CONTACT_PHONE, m.invalid("phone")),
  );
}

/** A national-address code as typed, as stored: Latin digits, no spaces or dashes, letters upper-cased ("rrrd 2929", "١٢٣٤٥"). */
export function nationalCodeText(text: string): string {
  return latinDigits(text).replace(/[\s-]/g, "").toUpperCase();
}

/** A code of the national address the shopper may leave empty (`nationalCodeText`); empty reads as null. */
function nationalCode(m: InputMessages, field: InputField, form: RegExp) {
  return v.optional(
    v.nullable(
      v.pipe(
        v.string(m.invalid(field)),
        v.transform(nationalCodeText),
        v.check((s) => s === "" || form.test(s), m.invalid(field)),
        v.transform((s) => (s === "" ? null : s)),
      ),
    ),
    null,
  );
}

/** The fields of a delivery address, for a saved address and for checkout alike. */
export function addressFields(m: InputMessages) {
  return {
    name: requiredText(m, "name", LIMITS.name),
    phone: contactPhone(m),
    city: requiredText(m, "city", LIMITS.city),
    district: requiredText(m, "district", LIMITS.district),
    street: requiredText(m, "street", LIMITS.street),
    building: nationalCode(m, "building", BUILDING_NUMBER),
    postal_code: nationalCode(m, "postal_code", POSTAL_CODE),
    additional_number: nationalCode(m, "additional_number", ADDITIONAL_NUMBER),
    short_address: nationalCode(m, "short_address", SHORT_ADDRESS),
    notes: optionalText(m, "notes", LIMITS.notes),
  };
}

/**
 * Whether a short address and a building number given together agree: the short address ends with
 * the building's number. Either alone, or neither, agrees.
 */
export function shortAddressMatches(a: { building?: string | null; short_address?: string | null }): boolean {
  return !a.short_address || !a.building || a.short_address.slice(4) === a.building;
}

/** The building number a short address gives ("RRRD2929": 2929), or null when it is not one. */
export function buildingOfShortAddress(shortAddress: string): string | null {
  const code = nationalCodeText(shortAddress);
  return SHORT_ADDRESS.test(code) ? code.slice(4) : null;
}

/**
 * What a form's building field becomes as the short address changes from `before` to `now`: the
 * number the new short address gives, when the field is empty or held what the old one gave (the
 * shopper typed no number of their own); null when it stays as it is.
 */
export function buildingAsTyped(building: string, before: string, now: string): string | null {
  const given = buildingOfShortAddress(now);
  return given && (!building.trim() || building === buildingOfShortAddress(before)) && building !== given
    ? given
    : null;
}

/** An address whose short address gives its building number when none was typed: the quick way to give it. */
export function withBuildingNumber<Address extends { building: string | null; short_address?: string | null }>(
  a: Address,
): Address {
  return a.building || !a.short_address ? a : { ...a, building: a.short_address.slice(4) };
}

type NationalCodes = { building?: string | null; short_address?: string | null };

/** The short address's agreement with the building number, reported on the short address's field. */
function sameBuilding<Address extends NationalCodes & Record<string, unknown>>(
  m: InputMessages,
): v.BaseValidation<Address, Address, v.CheckIssue<Address>> {
  // valibot checks a path against a known object type; "short_address" is a key of every Address.
  const path = ["short_address"] as never;
  return v.forward(v.check<Address, string>(shortAddressMatches, m.invalid("short_address")), path);
}

/** A saved address (POST /client/addresses): the delivery fields, a label and the default flag. */
export function savedAddressFields(m: InputMessages) {
  return {
    label: optionalText(m, "label", LIMITS.label),
    ...addressFields(m),
    is_default: v.optional(v.boolean(m.invalid("is_default")), false),
  };
}

export function addressInput(m: InputMessages) {
  return v.pipe(v.object(savedAddressFields(m)), sameBuilding(m), v.transform(withBuildingNumber));
}

/** PUT /client/addresses/{id}: the fields to change; omitted ones keep their value. */
export function addressChanges(m: InputMessages) {
  return v.pipe(v.partial(v.object(savedAddressFields(m))), sameBuilding(m));
}

/** A VAT number as typed, as stored: Latin digits, no spaces or dashes ("٣١٠ ١٢٣…"). */
export function vatNumberText(text: string): string {
  return latinDigits(text).replace(/[\s-]/g, "");
}

/**
 * A business buyer's company and VAT number (POST /checkout), for a standard tax invoice in the
 * company's name: each optional here; the backend asks for both, or neither, when it places the order.
 */
export function buyerFields(m: InputMessages) {
  return {
    // No default: a caller that builds the input itself (a test, a service) may leave them out.
    buyer_company: v.optional(
      v.nullable(
        v.pipe(
          v.string(m.invalid("buyer_company")),
          v.trim(),
          v.maxLength(LIMITS.name, m.maxLength("buyer_company", LIMITS.name)),
          v.transform((s) => (s === "" ? null : s)),
        ),
      ),
    ),
    buyer_vat_number: v.optional(
      v.nullable(
        v.pipe(
          v.string(m.invalid("buyer_vat_number")),
          v.transform(vatNumberText),
          v.check((s) => s === "" || VAT_NUMBER.test(s), m.invalid("buyer_vat_number")),
          v.transform((s) => (s === "" ? null : s)),
        ),
      ),
    ),
  };
}

/** A shipping or payment method's id, where the caller does not know the backend's list. */
export function methodId(m: InputMessages, field: "shipping_method" | "payment_method") {
  return v.pipe(v.string(m.required(field)), v.regex(/^[a-z0-9_-]{1,40}$/, m.invalid(field)));
}

type MethodSchema = v.GenericSchema<string, string>;

/**
 * POST /checkout. The methods a backend offers are its own: it passes a choice of its ids
 * (`v.picklist`), a caller that does not know them passes `methodId`.
 */
export function checkoutInput<Shipping extends MethodSchema, Payment extends MethodSchema>(
  m: InputMessages,
  methods: { shipping: Shipping; payment: Payment },
) {
  return v.object({
    idempotency_key: v.pipe(
      v.string(m.required("idempotency_key")),
      v.regex(/^[A-Za-z0-9_.:-]{8,100}$/, m.invalid("idempotency_key")),
    ),
    // Optional for a signed-in shopper: the account's email is used.
    email: v.optional(emailField(m)),
    address: v.optional(v.pipe(v.object(addressFields(m)), sameBuilding(m), v.transform(withBuildingNumber))),
    address_id: v.optional(
      v.pipe(
        v.number(m.invalid("address_id")),
        v.integer(m.invalid("address_id")),
        v.minValue(1, m.invalid("address_id")),
      ),
    ),
    shipping_method: methods.shipping,
    payment_method: methods.payment,
    // A business buyer: their company and VAT number make the invoice a standard (B2B) one, which
    // ZATCA clears; the delivery address must then carry the building number and postal code
    // (the backend checks the address, new or saved, when it places the order).
    ...buyerFields(m),
  });
}

/** POST /promo-code/check. */
export function promoInput(m: InputMessages) {
  return v.object({ code: requiredText(m, "code", LIMITS.promoCode) });
}

/** The cart's product and quantity; `min` is 0 where a quantity of 0 removes the line. */
export function cartFields(m: InputMessages, min: 0 | 1 = 1) {
  const whole = (field: "product_id" | "variant_id" | "quantity") =>
    v.pipe(v.number(m.invalid(field)), v.integer(m.invalid(field)));
  return {
    product_id: v.pipe(whole("product_id"), v.minValue(1, m.invalid("product_id"))),
    /** The variant of the product; may be left out for a product of one variant. */
    variant_id: v.optional(v.pipe(whole("variant_id"), v.minValue(1, m.invalid("variant_id")))),
    quantity: v.pipe(
      whole("quantity"),
      v.minValue(min, m.invalid("quantity")),
      v.maxValue(LIMITS.quantity, m.invalid("quantity")),
    ),
  };
}

/**
 * POST /cart/sync (contract/cart.ts): the lines a browser changed offline, each set to a quantity
 * (0 removes it), at most `LIMITS.cartSyncLines` of them.
 */
export function cartSyncInput(m: InputMessages) {
  return v.object({
    lines: v.pipe(
      v.array(v.object(cartFields(m, 0)), m.required("lines")),
      v.minLength(1, m.required("lines")),
      v.maxLength(LIMITS.cartSyncLines, m.invalid("lines")),
    ),
  });
}

/** POST /contact: the contact form. */
export function contactInput(m: InputMessages) {
  return v.object({
    name: requiredText(m, "name", LIMITS.name, LIMITS.contactNameMin),
    email: emailField(m),
    // Kept as typed (Arabic-Indic digits read as digits), checked on its digits.
    phone: v.optional(
      v.pipe(
        v.string(m.invalid("phone")),
        v.transform((s) => latinDigits(s).trim()),
        v.check((s) => s === "" || CONTACT_PHONE.test(normalizePhone(s)), m.invalid("phone")),
        v.transform((s) => s || undefined),
      ),
    ),
    subject: requiredText(m, "subject", LIMITS.subject, LIMITS.subjectMin),
    message: requiredText(m, "message", LIMITS.message, LIMITS.messageMin),
  });
}

export type ContactInput = v.InferOutput<ReturnType<typeof contactInput>>;

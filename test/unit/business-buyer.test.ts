import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { checkoutInput, methodId } from "../../contract/inputs";
import { inputMessages } from "../../contract/server/input-messages";
import { loadValibot } from "../../app/lib/forms";
import { checkoutRules } from "../../app/lib/input-rules";
import { CHECKOUT_LABELS, tAr, tEn } from "../support/form-labels";

// A business buyer at checkout: the company's name and VAT number for a standard tax invoice, and
// the national address's codes that invoice needs. The form's rules and POST /checkout's schema
// are the contract's (contract/inputs.ts).

const schema = (lang: "en" | "ar") => {
  const m = inputMessages(lang);
  return checkoutInput(m, { shipping: methodId(m, "shipping_method"), payment: methodId(m, "payment_method") });
};

const address = {
  name: "Sara",
  phone: "0501234567",
  city: "Riyadh",
  district: "Al Olaya",
  street: "King Fahd Road",
  building: "4821",
  postal_code: "12271",
};

const order = (extra: Record<string, unknown>) => ({
  idempotency_key: "business-buyer-1",
  email: "buyer@example.com",
  address,
  shipping_method: "standard",
  payment_method: "card",
  ...extra,
});

/** The schema's messages by field path, as a 422 lists them. */
function problems(input: unknown, lang: "en" | "ar" = "en"): Record<string, string[]> {
  const result = v.safeParse(schema(lang), input);
  return result.success ? {} : (v.flatten(result.issues).nested as Record<string, string[]>);
}

describe("a business buyer's checkout", () => {
  it("the form accepts a VAT number of 15 digits that starts and ends with 3, typed in Arabic-Indic digits or with spaces", async () => {
    await loadValibot();
    const rules = checkoutRules(tEn, CHECKOUT_LABELS);
    expect(rules.buyer_vat_number("310123456700003")).toBe("");
    expect(rules.buyer_vat_number("٣١٠١٢٣٤٥٦٧٠٠٠٠٣")).toBe("");
    expect(rules.buyer_vat_number("310 1234 5670 0003")).toBe("");
  });

  it("the form refuses a VAT number of 14 digits, or one that does not start and end with 3, saying what it should be, in both languages", async () => {
    await loadValibot();
    for (const t of [tEn, tAr]) {
      const rules = checkoutRules(t, CHECKOUT_LABELS);
      for (const wrong of ["31012345670003", "210123456700003", "310123456700001", "31012345670000X"])
        expect(rules.buyer_vat_number(wrong), wrong).toBe(t("checkout.business.vatNumberInvalid"));
    }
    expect(tAr("checkout.business.vatNumberInvalid")).not.toBe(tEn("checkout.business.vatNumberInvalid"));
  });

  it("POST /checkout reads the VAT number as Latin digits, and a shopper who names no company places an order as before", () => {
    const read = v.parse(schema("en"), order({ buyer_company: " Acme Trading ", buyer_vat_number: "٣١٠١٢٣٤٥٦٧٠٠٠٠٣" }));
    expect(read.buyer_company).toBe("Acme Trading");
    expect(read.buyer_vat_number).toBe("310123456700003");
    expect(problems(order({}))).toEqual({});
    expect(problems(order({ buyer_company: "", buyer_vat_number: "" }))).toEqual({});
  });

  it("POST /checkout refuses a company without its VAT number, and a VAT number without its company", () => {
    expect(Object.keys(problems(order({ buyer_company: "Acme Trading" })))).toEqual(["buyer_vat_number"]);
    expect(Object.keys(problems(order({ buyer_vat_number: "310123456700003" })))).toEqual(["buyer_company"]);
    expect(problems(order({ buyer_company: "Acme", buyer_vat_number: "31012345670000" }))).toEqual({
      buyer_vat_number: ["The VAT number is 15 digits that start and end with 3, like 310123456700003."],
    });
  });

  it("POST /checkout asks a business buyer's new address for its building number and postal code, in the request's language", () => {
    const business = { buyer_company: "Acme Trading", buyer_vat_number: "310123456700003" };
    const bare = { ...address, building: undefined, postal_code: undefined };
    expect(problems(order({ ...business, address: bare }))).toEqual({
      "address.building": ["Building number is required."],
      "address.postal_code": ["Postal code is required."],
    });
    expect(Object.keys(problems(order({ ...business, address: bare }), "ar")).sort()).toEqual([
      "address.building",
      "address.postal_code",
    ]);
    // The short address gives the building number.
    expect(
      problems(order({ ...business, address: { ...bare, short_address: "RAQA4821", postal_code: "12271" } })),
    ).toEqual({});
    // A shopper without a company needs neither.
    expect(problems(order({ address: bare }))).toEqual({});
  });
});

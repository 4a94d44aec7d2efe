import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { checkoutInput, methodId } from "../../contract/inputs";
import { inputMessages } from "../../contract/server/input-messages";
import { loadValibot } from "../../app/lib/forms";
import { checkoutRules } from "../../app/lib/input-rules";
import { CHECKOUT_LABELS, tAr, tEn } from "../support/form-labels";

// A business buyer at checkout: the company's name and VAT number for a standard tax invoice. The
// form's rules and POST /checkout's schema are the contract's (contract/inputs.ts); that both come
// together, with the address's codes, the backend checks when it places the order (its tests).

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

  it("POST /checkout refuses a VAT number of another form, saying what it should be", () => {
    expect(problems(order({ buyer_company: "Acme", buyer_vat_number: "31012345670000" }))).toEqual({
      buyer_vat_number: ["Enter the company's VAT number: 15 digits, starting and ending with 3."],
    });
  });
});

import { describe, expect, it } from "vitest";
import { LIMITS } from "../../contract/limits";
import { formRules, loadValibot, type Validator } from "../../app/lib/forms";
import { addressRules, checkoutRules, contactRules } from "../../app/lib/input-rules";
import { address, call, createProduct, newGuest, newUser } from "../support/commerce";
import { ADDRESS_LABELS, CHECKOUT_LABELS, tAr, tEn } from "../support/form-labels";

// One schema per input (contract/inputs.ts). The forms' rules and the
// backend's routes are built from it, so a value one refuses the other refuses too, with the
// backend answering in the request's language.

/** A rule's answer, once valibot has loaded (as the forms have it by the first blur). */
async function says(rule: Validator, value: string): Promise<string> {
  await loadValibot();
  return rule(value);
}

async function guestCheckout(lang: "en" | "ar", name: string) {
  const guest = await newGuest(lang);
  const product = await createProduct({ price: 1000, stock: 5 });
  await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
  return call(guest, "POST", "/checkout", {
    idempotency_key: crypto.randomUUID(),
    email: guest.email,
    address: { ...address, name },
    shipping_method: "standard",
    payment_method: "card",
  });
}

describe("one schema per input, used by the forms and the backend", () => {
  const tooLong = "س".repeat(110);
  const longest = "x".repeat(LIMITS.name);

  it("a 110-character name is refused by the checkout form and by POST /checkout, a 100-character one by neither", async () => {
    const form = checkoutRules(tEn, CHECKOUT_LABELS);
    expect(await says(form.name, tooLong)).toBe("Full name must be at most 100 characters.");
    expect(await says(form.name, longest)).toBe("");

    const refused = await guestCheckout("en", tooLong);
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.["address.name"]).toEqual(["Name may not be longer than 100 characters."]);
    expect((await guestCheckout("en", longest)).status).toBe(201);
  });

  it("the same name is refused by the address book's form and by POST /client/addresses, in Arabic too", async () => {
    const form = addressRules(tAr, { ...ADDRESS_LABELS, label: "الوصف", name: "الاسم" });
    expect(await says(form.name, tooLong)).toBe(tAr("form.maxLength", { name: "الاسم", max: 100 }));

    const user = await newUser("ar");
    const refused = await call(user, "POST", "/client/addresses", { ...address, name: tooLong });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe("البيانات المدخلة غير صالحة.");
    expect(refused.body.errors?.name).toEqual(["تجاوز طول الاسم الحد الأقصى (100)."]);
    expect((await call(user, "POST", "/client/addresses", { ...address, name: longest })).status).toBe(201);
  });

  it("the rules that drifted apart agree again: street, postal code and the contact form's name", async () => {
    const form = checkoutRules(tEn, CHECKOUT_LABELS);
    const street = "s".repeat(LIMITS.street);
    expect(await says(form.street, street)).toBe("");
    expect(await says(form.street, `${street}s`)).not.toBe("");
    expect(await says(form.postal_code, "1".repeat(12))).toBe(tEn("address.postalCodeInvalid"));

    const guest = await newGuest();
    const product = await createProduct({ price: 1000, stock: 5 });
    await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const refused = await call(guest, "POST", "/checkout", {
      idempotency_key: crypto.randomUUID(),
      email: guest.email,
      address: { ...address, street: `${street}s`, postal_code: "1".repeat(12) },
      shipping_method: "standard",
      payment_method: "card",
    });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors ?? {}).sort()).toEqual(["address.postal_code", "address.street"]);

    // The contact form used to accept a one-letter name the backend refused.
    const contact = contactRules(tEn, {
      name: "Name",
      email: "Email",
      phone: "Phone",
      subject: "Subject",
      message: "Message",
    });
    expect(await says(contact.name, "S")).toBe("Name must be at least 2 characters.");

    // The account forms' name and password bounds are the contract's too, as the backend's are.
    const account = formRules(tEn);
    expect(await says(account.personName("Name")[1], "x".repeat(LIMITS.name + 1))).toBe(
      "Name must be at most 100 characters.",
    );
    expect(await says(account.newPassword("Password")[1], "short")).toBe("Password must be at least 8 characters.");
  });
});

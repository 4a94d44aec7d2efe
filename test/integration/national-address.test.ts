import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { TaxDocument } from "../../contract/invoices";
import { buildingAsTyped } from "../../contract/inputs";
import { loadValibot } from "../../app/lib/forms";
import { addressRules, checkoutRules } from "../../app/lib/input-rules";
import { nationalAddressText } from "../../app/components/NationalAddress";
import { listAddresses } from "../../worker/backend/services/accounts/addresses";
import { address, call, checkoutWith, createProduct, newGuest, newUser } from "../support/commerce";
import { newStaff } from "../support/console";
import { dropAll } from "../support/d1-schema";
import { ADDRESS_LABELS, CHECKOUT_LABELS, tAr, tEn } from "../support/form-labels";
import { payOrder } from "../support/orders";

// The Saudi national address (contract/inputs.ts): building number, postal code, additional
// number and short address, checked alike by the forms and the backend in both languages, kept on
// saved addresses (migration 0043) and on the order, and printed on the tax invoice.

const national = { short_address: "RRRD2929", building: "2929", additional_number: "6789", postal_code: "12211" };

/** Wrong forms of each code, with the message key the forms show for it. */
const WRONG: [field: keyof typeof national, value: string, key: string][] = [
  ["building", "12", "address.buildingInvalid"],
  ["building", "Villa 12", "address.buildingInvalid"],
  ["postal_code", "1221", "address.postalCodeInvalid"],
  ["postal_code", "12211-1", "address.postalCodeInvalid"],
  ["additional_number", "67890", "address.additionalNumberInvalid"],
  ["short_address", "RRR2929", "address.shortAddressInvalid"],
  ["short_address", "رررد2929", "address.shortAddressInvalid"],
  ["short_address", "RRRD29290", "address.shortAddressInvalid"],
];

describe("the national address", () => {
  it("each wrong code is refused by the checkout form, the address book's form and the backend, in both languages", async () => {
    await loadValibot();
    for (const [lang, t] of [
      ["en", tEn],
      ["ar", tAr],
    ] as const) {
      const checkout = checkoutRules(t, CHECKOUT_LABELS);
      const book = addressRules(t, { ...ADDRESS_LABELS, label: "Label" });
      const user = await newUser(lang);
      for (const [field, value, key] of WRONG) {
        expect(checkout[field](value), `${lang} checkout ${field} ${value}`).toBe(t(key));
        expect(book[field](value), `${lang} book ${field} ${value}`).toBe(t(key));
        const refused = await call(user, "POST", "/client/addresses", { ...address, ...national, [field]: value });
        expect(refused.status, `${field} ${value}`).toBe(422);
        // The backend says it in the request's language, in the same words as the form.
        expect(refused.body.errors?.[field], `${lang} ${field} ${value}`).toEqual([t(key)]);
      }
      for (const field of Object.keys(national) as (keyof typeof national)[])
        expect(checkout[field](national[field])).toBe("");
    }
  });

  it("reads Arabic-Indic digits, spaces and small letters as the codes they are, and an empty code as none", async () => {
    const user = await newUser("ar");
    const saved = await call(user, "POST", "/client/addresses", {
      ...address,
      short_address: "rrrd ٢٩٢٩",
      building: "٢٩٢٩",
      additional_number: "67 89",
      postal_code: "١٢٢١١",
    });
    expect(saved.status).toBe(201);
    expect(saved.body.data).toMatchObject(national);
    const bare = await call(user, "POST", "/client/addresses", {
      ...address,
      building: "",
      short_address: "",
      additional_number: "",
      postal_code: "",
    });
    expect(bare.status).toBe(201);
    expect(bare.body.data).toMatchObject({
      building: null,
      short_address: null,
      additional_number: null,
      postal_code: null,
    });
    // The short address alone gives the building number, on a new address and on a change.
    const quick = await call(user, "POST", "/client/addresses", {
      ...address,
      building: "",
      short_address: "RRRD2929",
    });
    expect(quick.body.data).toMatchObject({ building: "2929", short_address: "RRRD2929" });
    const changed = await call(user, "PUT", `/client/addresses/${bare.body.data.id}`, { short_address: "abcd 1234" });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ building: "1234", short_address: "ABCD1234" });
    const guest = await newGuest("ar");
    const product = await createProduct({ price: 1000, stock: 5 });
    const placed = await checkoutWith(guest, product.id, 1, {
      address: { ...address, building: undefined, short_address: "RRRD2929" },
    });
    expect(placed.status).toBe(201);
    const kept = await env.DB.prepare("SELECT address FROM orders WHERE number = ?")
      .bind(placed.body.data.number)
      .first<{ address: string }>();
    expect(JSON.parse(kept!.address)).toMatchObject({ building: "2929", short_address: "RRRD2929" });
  });

  it("a short address naming another building is refused, at checkout, in the book and when either is changed", async () => {
    const user = await newUser("en");
    const other = { ...address, ...national, building: "1111" };
    const refused = await call(user, "POST", "/client/addresses", other);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ short_address: [tEn("address.shortAddressInvalid")] });
    const guest = await newGuest("ar");
    const product = await createProduct({ price: 1000, stock: 5 });
    const placed = await checkoutWith(guest, product.id, 1, { address: other });
    expect(placed.status).toBe(422);
    expect(placed.body.errors).toEqual({ "address.short_address": [tAr("address.shortAddressInvalid")] });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE email = ?").bind(guest.email).first("n")).toBe(
      0,
    );
    // Saved right, then one side changed alone: the pair is checked as it would be kept.
    const saved = await call(user, "POST", "/client/addresses", { ...address, ...national });
    expect(saved.status).toBe(201);
    const moved = await call(user, "PUT", `/client/addresses/${saved.body.data.id}`, { building: "1111" });
    expect(moved.status).toBe(422);
    expect(moved.body.errors?.short_address).toHaveLength(1);
    const both = await call(user, "PUT", `/client/addresses/${saved.body.data.id}`, {
      building: "1111",
      short_address: "RRRD1111",
    });
    expect(both.status).toBe(200);
    expect(both.body.data).toMatchObject({ building: "1111", short_address: "RRRD1111" });
  });

  it("travels from the saved address to the order and its invoice; support sees only that it is there", async () => {
    const user = await newUser("ar");
    const saved = await call(user, "POST", "/client/addresses", { ...address, ...national });
    const product = await createProduct({ price: 1000, stock: 5 });
    const placed = await checkoutWith(user, product.id, 1, { address: undefined, address_id: saved.body.data.id });
    expect(placed.status).toBe(201);
    const number = placed.body.data.number as string;
    const order = (await call(user, "GET", `/orders/${number}`)).body.data;
    expect(order.address).toMatchObject(national);
    await payOrder(user, number);
    const invoice = (await call<TaxDocument>(user, "GET", `/orders/${number}/invoice`)).body.data;
    expect(invoice.buyer).toEqual({
      name: address.name,
      city: address.city,
      short_address: "RRRD2929",
      company: null,
      vat_number: null,
    });
    // A guest's new address keeps its codes on the order the same way.
    const guest = await newGuest();
    const guestOrder = await checkoutWith(guest, product.id, 1, { address: { ...address, ...national } });
    expect(guestOrder.status).toBe(201);
    const kept = await env.DB.prepare("SELECT address FROM orders WHERE number = ?")
      .bind(guestOrder.body.data.number)
      .first<{ address: string }>();
    expect(JSON.parse(kept!.address)).toMatchObject(national);
    const support = await newStaff("support");
    const seen = (await call(support, "GET", `/admin/orders/${number}`)).body.data.address;
    expect(seen).toMatchObject({ building: "•••", postal_code: "•••", additional_number: "•••", short_address: "•••" });
    expect((await call(support, "GET", `/admin/orders/${number}/invoice`)).body.data.buyer.short_address).toBe("•••");
    const manager = await newStaff("manager");
    expect((await call(manager, "GET", `/admin/orders/${number}/invoice`)).body.data.buyer.short_address).toBe(
      "RRRD2929",
    );
    expect((await call(manager, "GET", `/admin/orders/${number}`)).body.data.address).toMatchObject(national);
    const customer = (await call(support, "GET", `/admin/customers/${user.userId}`)).body.data;
    expect(customer.addresses[0]).toMatchObject({ short_address: "***", additional_number: "***" });
  });
});

describe("the building number a form fills from the short address", () => {
  it("fills an empty field, or one holding what the last short address gave, and never a number typed by hand", () => {
    expect(buildingAsTyped("", "", "rrrd ٢٩٢٩")).toBe("2929");
    expect(buildingAsTyped("2929", "RRRD2929", "RRRD1111")).toBe("1111");
    expect(buildingAsTyped("4444", "RRRD2929", "RRRD1111")).toBeNull();
    expect(buildingAsTyped("", "", "RRRD29")).toBeNull();
    expect(buildingAsTyped("2929", "RRRD292", "RRRD2929")).toBeNull();
  });
});

describe("the national address as printed", () => {
  it("names its codes in the reader's language, and says nothing of an address without them", () => {
    expect(nationalAddressText(national, tEn)).toBe("Short address RRRD2929 · Additional number 6789");
    expect(nationalAddressText(national, tAr)).toBe("العنوان المختصر RRRD2929 · الرقم الإضافي 6789");
    expect(nationalAddressText({ short_address: "RRRD2929" }, tEn)).toBe("Short address RRRD2929");
    expect(nationalAddressText({ short_address: null, additional_number: null }, tAr)).toBe("");
  });
});

describe("migration 0043 on a database made and used under the schema before it", () => {
  it("keeps every saved address as it was, with no national codes, and reads them as before", async () => {
    const db = env.REPLICA_DB;
    await dropAll(db);
    await applyD1Migrations(
      db,
      env.TEST_MIGRATIONS.filter((m) => m.name < "0043"),
    );
    const user = await db
      .prepare("INSERT INTO users (name, email, password_hash) VALUES ('Old', 'old@example.com', 'x') RETURNING id")
      .first<number>("id");
    await db.batch([
      db
        .prepare(
          `INSERT INTO addresses (user_id, label, name, phone, city, district, street, building, postal_code, notes, is_default)
           VALUES (?, 'Home', 'Sara', '+966501234567', 'Riyadh', 'Olaya', 'King Fahd Road', 'Villa 12', 'A1 234', 'Ring', 1)`,
        )
        .bind(user),
      db
        .prepare(
          `INSERT INTO addresses (user_id, name, phone, city, district, street) VALUES (?, 'Sara', '0501234567', 'Jeddah', 'Rawdah', 'Tahlia')`,
        )
        .bind(user),
    ]);
    const read = () => db.prepare("SELECT * FROM addresses ORDER BY id").all();
    const before = (await read()).results;
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    const after = (await read()).results;
    expect(after).toEqual(before.map((row) => ({ ...row, additional_number: null, short_address: null })));
    const listed = await listAddresses(db, user!);
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatchObject({ building: "Villa 12", postal_code: "A1 234", short_address: null });
  });
});

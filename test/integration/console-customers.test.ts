import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { address, call, checkoutWith, createProduct, newGuest, newUser, type Shopper } from "../support/commerce";
import { newStaff } from "../support/console";

/** A customer with a saved address and one order, paid. */
async function customerWithOrder(): Promise<{ shopper: Shopper; phone: string; number: string }> {
  const shopper = await newUser();
  const saved = await call(shopper, "POST", "/client/addresses", {
    ...address,
    street: "Prince Sultan Street",
    building: "7701",
    notes: "Ring twice",
    is_default: true,
  });
  expect(saved.status).toBe(201);
  const product = await createProduct({ price: 25000 });
  const placed = await checkoutWith(shopper, product.id);
  expect(placed.status).toBe(201);
  const number = placed.body.data.number as string;
  await env.DB.prepare("UPDATE orders SET status = 'paid', paid_at = created_at WHERE number = ?").bind(number).run();
  const user = await env.DB.prepare("SELECT phone FROM users WHERE id = ?")
    .bind(shopper.userId)
    .first<{ phone: string }>();
  return { shopper, phone: user!.phone, number };
}

describe("customers in the console", () => {
  it("support sees a customer's email, phone and address masked; the city and the orders stay readable", async () => {
    const { shopper, phone, number } = await customerWithOrder();
    const support = await newStaff("support");
    const seen = await call(support, "GET", `/admin/customers/${shopper.userId}`);
    expect(seen.status).toBe(200);
    const body = JSON.stringify(seen.body);
    expect(body).not.toContain(shopper.email);
    expect(body).not.toContain(phone);
    expect(body).not.toContain(address.phone);
    expect(body).not.toContain("Prince Sultan Street");
    expect(body).not.toContain("Ring twice");
    expect(seen.body.data).toMatchObject({
      masked: true,
      email: `${shopper.email[0]}***@e***.com`,
      phone: `${phone.slice(0, 5)}${"*".repeat(phone.length - 7)}${phone.slice(-2)}`,
      orders_count: 1,
      total_spent: expect.any(Number),
    });
    expect(seen.body.data.addresses).toEqual([
      expect.objectContaining({ city: "Riyadh", district: "Olaya", street: "***", building: "***", notes: "***" }),
    ]);
    expect(seen.body.data.orders).toEqual([expect.objectContaining({ number, status: "paid", items: 1 })]);
  });

  it("a manager sees the same customer in full", async () => {
    const { shopper, phone, number } = await customerWithOrder();
    const manager = await newStaff("manager");
    const seen = await call(manager, "GET", `/admin/customers/${shopper.userId}`);
    expect(seen.body.data).toMatchObject({ masked: false, email: shopper.email, phone, orders_count: 1 });
    expect(seen.body.data.addresses[0]).toMatchObject({
      phone: address.phone,
      street: "Prince Sultan Street",
      building: "7701",
      notes: "Ring twice",
    });
    const order = seen.body.data.orders[0];
    expect(order).toMatchObject({ number, status: "paid" });
    expect(seen.body.data.total_spent).toBe(order.total);
  });

  it("the list masks for support too, and counts orders and what was spent", async () => {
    const { shopper, phone } = await customerWithOrder();
    const [support, owner] = await Promise.all([newStaff("support"), newStaff("owner")]);
    const full = await call(owner, "GET", `/admin/customers?search=${encodeURIComponent(shopper.email)}`);
    expect(full.body.data).toEqual([
      expect.objectContaining({ id: shopper.userId, email: shopper.email, phone, orders_count: 1, masked: false }),
    ]);
    const masked = await call(support, "GET", `/admin/customers?search=${encodeURIComponent(shopper.email)}`);
    expect(masked.body.data).toEqual([expect.objectContaining({ id: shopper.userId, masked: true })]);
    expect(JSON.stringify(masked.body)).not.toContain(shopper.email);
    expect(JSON.stringify(masked.body)).not.toContain(phone);
  });

  it("support cannot discover contact data by searching for part of it", async () => {
    const { shopper, phone, number } = await customerWithOrder();
    const [support, manager] = await Promise.all([newStaff("support"), newStaff("manager")]);
    const part = shopper.email.slice(0, 12);
    const ids = async (who: Shopper, search: string) =>
      (
        (await call(who, "GET", `/admin/customers?search=${encodeURIComponent(search)}&per_page=100`)).body.data as {
          id: number;
        }[]
      ).map((r) => r.id);
    // A manager finds by any part of the email or phone; support does not.
    expect(await ids(manager, part)).toContain(shopper.userId);
    expect(await ids(support, part)).not.toContain(shopper.userId);
    expect(await ids(manager, phone.slice(4, 10))).toContain(shopper.userId);
    expect(await ids(support, phone.slice(4, 10))).not.toContain(shopper.userId);
    // The whole email (any case), the whole phone or an order number find the customer, masked.
    expect(await ids(support, shopper.email.toUpperCase())).toEqual([shopper.userId]);
    expect(await ids(support, phone)).toEqual([shopper.userId]);
    expect(await ids(support, number)).toEqual([shopper.userId]);
  });

  it("a long search, wildcards and backslashes included, is searched for as typed (D1 refuses long LIKE patterns)", async () => {
    const owner = await newStaff("owner");
    const long = `${"x".repeat(60)}\\%_ "quoted"`;
    for (const path of ["/admin/customers", "/admin/audit"]) {
      const found = await call(owner, "GET", `${path}?search=${encodeURIComponent(long)}`);
      expect(found.status, path).toBe(200);
      expect(found.body.data, path).toEqual([]);
    }
    // Promo codes are short: a search longer than any code is refused with a field error instead.
    const promo = await call(owner, "GET", `/admin/promo-codes?search=${encodeURIComponent(long)}`);
    expect(promo.status).toBe(422);
    expect(promo.body.errors?.search).toBeTruthy();
  });

  it("the list sorts and pages on the server", async () => {
    const manager = await newStaff("manager");
    const page = await call(manager, "GET", "/admin/customers?sort=orders_count&dir=desc&per_page=2");
    expect(page.status).toBe(200);
    expect(page.body.meta).toMatchObject({ page: 1, per_page: 2, sort: "orders_count", dir: "desc" });
    const counts = (page.body.data as { orders_count: number }[]).map((r) => r.orders_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect((await call(manager, "GET", "/admin/customers?sort=password_hash")).status).toBe(422);
    // Support does not get masked emails in their real order.
    const support = await newStaff("support");
    expect((await call(support, "GET", "/admin/customers?sort=email")).body.meta).toMatchObject({ sort: "created" });
    expect((await call(manager, "GET", "/admin/customers?sort=email")).body.meta).toMatchObject({ sort: "email" });
  });

  it("shoppers and guests find no customers at all; an unknown customer is a 404", async () => {
    const [shopper, guest, support] = await Promise.all([newUser(), newGuest(), newStaff("support")]);
    for (const who of [shopper, guest, null]) {
      expect((await call(who, "GET", "/admin/customers")).status).toBe(404);
      expect((await call(who, "GET", `/admin/customers/${shopper.userId}`)).status).toBe(404);
    }
    expect((await call(support, "GET", "/admin/customers/999999999")).status).toBe(404);
    expect((await call(support, "GET", "/admin/customers/abc")).status).toBe(404);
  });
});

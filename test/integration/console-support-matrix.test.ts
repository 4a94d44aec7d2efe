// What support (the masked role) can learn of a customer's contact data through the console.
// Every console read support may call is walked from the backend's own route table, so a read
// added later is covered too; the whole answer is searched for the customer's real values.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { roleAtLeast } from "../../contract/console";
import { call, checkoutWith, createProduct, newUser, type Shopper } from "../support/commerce";
import { consoleEndpoints, newStaff } from "../support/console";
import { payOrder } from "../support/orders";

/** A customer whose every contact detail is a value no other fixture uses. */
async function customer() {
  const shopper = await newUser();
  const tag = Math.random().toString(36).slice(2, 8);
  const phoneDigits = String(Math.floor(10_000_000 + Math.random() * 89_999_999));
  // The national address's codes are digits any answer may hold by chance; the short address's
  // letters make it this customer's alone, and it names the building.
  const letters = Array.from({ length: 4 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join("");
  const building = String(1000 + Math.floor(Math.random() * 9000));
  const delivery = {
    name: "Noura Test",
    phone: `+9665${phoneDigits}`,
    city: "Riyadh",
    district: "Olaya",
    street: `Qasr Lane ${tag}`,
    building,
    postal_code: "12211",
    additional_number: "6789",
    short_address: `${letters}${building}`,
    notes: `Gate code ${tag}, call my wife`,
  };
  const saved = await call(shopper, "POST", "/client/addresses", { ...delivery, is_default: true });
  expect(saved.status).toBe(201);
  const product = await createProduct({ price: 25000, stock: 10 });
  const placed = await checkoutWith(shopper, product.id, 2, { address: delivery });
  expect(placed.status).toBe(201);
  const number = placed.body.data.number as string;
  await payOrder(shopper, number);
  const { phone } = (await env.DB.prepare("SELECT phone FROM users WHERE id = ?")
    .bind(shopper.userId)
    .first<{ phone: string }>())!;
  // Delivered, with a return asked for: the returns and the "open returns" list have it too.
  await env.DB.prepare(
    "UPDATE orders SET status = 'delivered', shipped_at = created_at, delivered_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE number = ?",
  )
    .bind(number)
    .run();
  const asked = await call(shopper, "POST", `/orders/${number}/returns`, {
    items: [{ product_id: product.id, quantity: 1, reason: "changed_mind" }],
  });
  expect(asked.status).toBe(201);
  const secrets = {
    email: shopper.email,
    phone,
    address_phone: delivery.phone,
    street: delivery.street,
    short_address: delivery.short_address,
    notes: delivery.notes,
  };
  return { shopper, number, secrets, delivery };
}

const leaks = (body: unknown, secrets: Record<string, string>) => {
  const text = JSON.stringify(body).toLowerCase();
  return Object.entries(secrets)
    .filter(([, value]) => text.includes(value.toLowerCase()))
    .map(([name]) => name);
};

const numbers = (answer: { body: { data: { number: string }[] } }) => answer.body.data.map((o) => o.number);

describe("support and customers' contact data", () => {
  it("support contact oracle: substring searches of the orders list reveal nothing", async () => {
    const { number, secrets } = await customer();
    const [support, manager] = await Promise.all([newStaff("support"), newStaff("manager")]);
    const list = (who: Shopper, query: string) => call(who, "GET", `/admin/orders?per_page=100&${query}`);
    const search = (who: Shopper, text: string) => list(who, `search=${encodeURIComponent(text)}`);

    // The reviewer's oracle: does the order stay in the list as the guess grows?
    const emailPart = secrets.email.slice(0, 12);
    const digits = secrets.phone.slice(-8);
    const addressDigits = secrets.address_phone.slice(-8);
    for (const part of [emailPart, secrets.email.slice(0, 3), "@example.com", digits, addressDigits]) {
      const found = await search(support, part);
      expect(found.status, part).toBe(200);
      expect(numbers(found), part).not.toContain(number);
    }
    // A manager (who sees contact data anyway) still finds by any part.
    expect(numbers(await search(manager, emailPart))).toContain(number);
    expect(numbers(await search(manager, addressDigits))).toContain(number);

    // Support finds the order by what a caller would tell them, whole: the number, the email (any
    // case), the order's phone (international or the local way); and the answer is masked.
    for (const whole of [
      number,
      number.toLowerCase(),
      secrets.email.toUpperCase(),
      secrets.address_phone,
      `0${secrets.address_phone.slice(4)}`,
    ]) {
      const found = await search(support, whole);
      expect(numbers(found), whole).toEqual([number]);
      expect(leaks(found.body, secrets), whole).toEqual([]);
    }

    // Sorting by email would order the masked rows by the real addresses: not for support.
    const sorted = await list(support, "sort=email&dir=asc");
    expect(sorted.status).toBe(200);
    expect(sorted.body.meta?.sort).toBe("created_at");
    expect((await list(manager, "sort=email&dir=asc")).body.meta?.sort).toBe("email");
  });

  it("support contact oracle: no console read support may call answers a customer's email, phone, street, building, notes or postal code", async () => {
    const { shopper, number, secrets } = await customer();
    const [support, manager] = await Promise.all([newStaff("support"), newStaff("manager")]);
    const { endpoints } = consoleEndpoints();
    const reads = endpoints.filter((e) => e.method === "GET" && roleAtLeast("support", e.minimum));
    // The reads that show customers' data must be among them, or this test proves nothing.
    const paths = reads.map((e) => e.path);
    for (const path of [
      "/admin/orders",
      "/admin/orders/:number",
      "/admin/orders/:number/returns",
      "/admin/customers",
      "/admin/customers/:id",
      "/admin/dashboard",
    ])
      expect(paths).toContain(path);

    const concrete = (path: string) =>
      path
        .replace(":number", number)
        .replace(/^\/admin\/customers\/:id$/, `/admin/customers/${shopper.userId}`)
        .replace(/:[a-z_]+/g, "1");
    const queries = [
      "",
      "?per_page=100",
      `?per_page=100&search=${encodeURIComponent(secrets.email)}`,
      `?per_page=100&search=${encodeURIComponent(number)}`,
      "?per_page=100&returns=open",
    ];
    let checked = 0;
    for (const endpoint of reads) {
      for (const query of endpoint.path.includes(":") ? [""] : queries) {
        const path = `${concrete(endpoint.path)}${query}`;
        const seen = await call(support, "GET", path);
        expect(seen.status, path).toBeLessThan(500);
        expect(leaks(seen.body, secrets), path).toEqual([]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(reads.length);

    // The same reads do carry the data for a manager: the values searched for are the real ones.
    const detail = await call(manager, "GET", `/admin/orders/${number}`);
    expect(leaks(detail.body, secrets).sort()).toEqual(
      ["address_phone", "email", "notes", "short_address", "street"].sort(),
    );
    const person = await call(manager, "GET", `/admin/customers/${shopper.userId}`);
    expect(leaks(person.body, secrets)).toEqual(expect.arrayContaining(["email", "phone", "notes", "short_address"]));
  });

  it("support sees that an order has delivery notes and a postal code, not what they say", async () => {
    const { number } = await customer();
    const support = await newStaff("support");
    const seen = await call(support, "GET", `/admin/orders/${number}`);
    expect(seen.status).toBe(200);
    expect(seen.body.data.address).toMatchObject({
      city: "Riyadh",
      district: "Olaya",
      street: "•••",
      building: "•••",
      postal_code: "•••",
      additional_number: "•••",
      short_address: "•••",
      notes: "•••",
    });
  });
});

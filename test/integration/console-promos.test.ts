import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { freshIp } from "../support/accounts";
import { address, call, createProduct, newGuest, newUser, type Shopper } from "../support/commerce";
import { newStaff } from "../support/console";

let counter = 0;
/** A code no other test uses. */
const uniqueCode = (prefix = "CON") => `${prefix}${Date.now().toString(36).toUpperCase()}${counter++}`;

const codeFields = (code: string, extra: Record<string, unknown> = {}) => ({
  code,
  discount_type: 1,
  value: 10,
  max_discount: null,
  starts_at: null,
  ends_at: null,
  min_order: 0,
  usage_limit: null,
  per_user_limit: null,
  ...extra,
});

/** A shopper with a cart worth `halalas`. */
async function cartWorth(halalas: number, shopper?: Shopper): Promise<Shopper> {
  const who = shopper ?? (await newGuest());
  const product = await createProduct({ price: halalas, stock: 100 });
  expect((await call(who, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 })).status).toBe(200);
  return who;
}

const check = (shopper: Pick<Shopper, "headers">, code: string) =>
  call({ headers: { ...shopper.headers, "cf-connecting-ip": freshIp() } }, "POST", "/promo-code/check", { code });

async function auditOf(id: number) {
  const rows = await env.DB.prepare(
    "SELECT action, staff_email, before_json, after_json FROM audit_log WHERE entity = 'promo_code' AND entity_id = ? ORDER BY id",
  )
    .bind(String(id))
    .all<{ action: string; staff_email: string; before_json: string | null; after_json: string | null }>();
  return rows.results;
}

describe("promo codes in the console", () => {
  it("a manager creates, edits, pauses and resumes a code; each step is one audit line with who and what", async () => {
    const manager = await newStaff("manager");
    const code = uniqueCode();
    const created = await call(manager, "POST", "/admin/promo-codes", codeFields(code.toLowerCase()));
    expect(created.status).toBe(201);
    // Kept in capitals, as shoppers see codes.
    expect(created.body.data).toMatchObject({ code, active: true, state: "active", used_count: 0, redemptions: 0 });
    const id = created.body.data.id as number;

    const edited = await call(
      manager,
      "PUT",
      `/admin/promo-codes/${id}`,
      codeFields(code, { discount_type: 2, value: 2500, min_order: 10000, usage_limit: 50, per_user_limit: 2 }),
    );
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ discount_type: 2, value: 2500, min_order: 10000, usage_limit: 50 });

    const paused = await call(manager, "POST", `/admin/promo-codes/${id}/pause`);
    expect(paused.body.data).toMatchObject({ active: false, state: "paused" });
    const resumed = await call(manager, "POST", `/admin/promo-codes/${id}/resume`);
    expect(resumed.body.data).toMatchObject({ active: true, state: "active" });

    const audit = await auditOf(id);
    expect(audit.map((a) => a.action)).toEqual(["promo.create", "promo.update", "promo.pause", "promo.resume"]);
    expect(audit.every((a) => a.staff_email === manager.email)).toBe(true);
    expect(JSON.parse(audit[1]!.before_json!)).toMatchObject({ discount_type: 1, value: 10 });
    expect(JSON.parse(audit[1]!.after_json!)).toMatchObject({ discount_type: 2, value: 2500 });
    expect(JSON.parse(audit[2]!.after_json!)).toEqual({ code, active: false });
  });

  it("a paused code is refused at checkout's promo check, and works again once resumed", async () => {
    const owner = await newStaff("owner");
    const code = uniqueCode("PAUSE");
    const id = (await call(owner, "POST", "/admin/promo-codes", codeFields(code))).body.data.id as number;
    const guest = await cartWorth(20000);
    expect((await check(guest, code)).body.data).toMatchObject({ code, discount: 10, amount: 2000 });

    await call(owner, "POST", `/admin/promo-codes/${id}/pause`);
    const refused = await check(guest, code);
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.code).toEqual(["This promo code does not exist."]);

    await call(owner, "POST", `/admin/promo-codes/${id}/resume`);
    expect((await check(guest, code)).status).toBe(200);
  });

  it("each invalid field is named with its own message, in the operator's language, and nothing is written", async () => {
    const manager = await newStaff("manager");
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM promo_codes").first<{ n: number }>();
    const bad = await call(manager, "POST", "/admin/promo-codes", {
      code: "no spaces!",
      discount_type: 3,
      value: 0,
      max_discount: -5,
      starts_at: "tomorrow",
      min_order: 1.5,
      usage_limit: 0,
      per_user_limit: "two",
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual(
      [
        "code",
        "discount_type",
        "max_discount",
        "min_order",
        "per_user_limit",
        "starts_at",
        "usage_limit",
        "value",
      ].sort(),
    );
    expect(bad.body.errors?.code).toEqual(["Promo code is not valid."]);

    const percent = await call(manager, "POST", "/admin/promo-codes", codeFields(uniqueCode(), { value: 101 }));
    expect(percent.status).toBe(422);
    expect(percent.body.errors).toEqual({ value: ["A percentage is a whole number from 1 to 100."] });

    const fixedZero = await call(
      manager,
      "POST",
      "/admin/promo-codes",
      codeFields(uniqueCode(), { discount_type: 2, value: 0 }),
    );
    expect(Object.keys(fixedZero.body.errors ?? {})).toEqual(["value"]);
    // A fixed amount is in halalas: 150 SAR is 15000, well above 100.
    expect(
      (await call(manager, "POST", "/admin/promo-codes", codeFields(uniqueCode(), { discount_type: 2, value: 15000 })))
        .status,
    ).toBe(201);

    const backwards = await call(
      manager,
      "POST",
      "/admin/promo-codes",
      codeFields(uniqueCode(), { starts_at: "2030-02-01T00:00:00+03:00", ends_at: "2030-01-31T23:00:00+03:00" }),
    );
    expect(backwards.body.errors).toEqual({ ends_at: ["The end must come after the start."] });

    const arabic = await newStaff("manager", "ar");
    const inArabic = await call(arabic, "POST", "/admin/promo-codes", codeFields(uniqueCode(), { value: 150 }));
    expect(inArabic.body.errors?.value).toEqual(["النسبة المئوية عدد صحيح من 1 إلى 100."]);

    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM promo_codes").first<{ n: number }>();
    expect(after!.n).toBe(before!.n + 1);
  });

  it("starts and ends given in Riyadh time are kept as UTC", async () => {
    const manager = await newStaff("manager");
    const created = await call(
      manager,
      "POST",
      "/admin/promo-codes",
      codeFields(uniqueCode(), { starts_at: "2030-01-01T00:00+03:00", ends_at: "2030-01-31T23:59+03:00" }),
    );
    expect(created.body.data).toMatchObject({
      starts_at: "2029-12-31T21:00:00.000Z",
      ends_at: "2030-01-31T20:59:00.000Z",
      state: "scheduled",
    });
  });

  it("a code already in use, in any case, is refused on the code field", async () => {
    const manager = await newStaff("manager");
    const code = uniqueCode("DUP");
    expect((await call(manager, "POST", "/admin/promo-codes", codeFields(code))).status).toBe(201);
    const again = await call(manager, "POST", "/admin/promo-codes", codeFields(code.toLowerCase()));
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ code: ["Another promo code already uses this code."] });

    // Renaming another code to it is refused the same way; keeping one's own code is fine.
    const other = (await call(manager, "POST", "/admin/promo-codes", codeFields(uniqueCode("DUP")))).body.data;
    const renamed = await call(manager, "PUT", `/admin/promo-codes/${other.id}`, codeFields(code));
    expect(renamed.body.errors).toEqual({ code: ["Another promo code already uses this code."] });
    expect(
      (await call(manager, "PUT", `/admin/promo-codes/${other.id}`, codeFields(other.code, { value: 20 }))).status,
    ).toBe(200);
  });

  it("usage shows once an order uses the code, and the usage limit cannot go below it", async () => {
    const manager = await newStaff("manager");
    const code = uniqueCode("USE");
    const id = (await call(manager, "POST", "/admin/promo-codes", codeFields(code, { discount_type: 2, value: 3000 })))
      .body.data.id as number;
    const shopper = await cartWorth(20000, await newUser());
    expect((await check(shopper, code)).status).toBe(200);
    const placed = await call(shopper, "POST", "/checkout", {
      idempotency_key: crypto.randomUUID(),
      email: shopper.email,
      address,
      shipping_method: "standard",
      payment_method: "card",
    });
    expect(placed.status).toBe(201);

    const shown = await call(manager, "GET", `/admin/promo-codes/${id}`);
    expect(shown.body.data).toMatchObject({ used_count: 1, redemptions: 1, discount_total: 3000 });
    const listed = await call(manager, "GET", `/admin/promo-codes?search=${code}`);
    expect(listed.body.data).toEqual([expect.objectContaining({ code, used_count: 1, discount_total: 3000 })]);

    const tooLow = await call(
      manager,
      "PUT",
      `/admin/promo-codes/${id}`,
      codeFields(code, { discount_type: 2, value: 3000, usage_limit: 0 }),
    );
    expect(tooLow.status).toBe(422);
    expect(Object.keys(tooLow.body.errors ?? {})).toEqual(["usage_limit"]);
    const belowUsed = await call(
      manager,
      "PUT",
      `/admin/promo-codes/${id}`,
      codeFields(code, { discount_type: 2, value: 3000, usage_limit: 1 }),
    );
    expect(belowUsed.status).toBe(200);
    await env.DB.prepare("UPDATE promo_codes SET used_count = 2, usage_limit = NULL WHERE id = ?").bind(id).run();
    const under = await call(
      manager,
      "PUT",
      `/admin/promo-codes/${id}`,
      codeFields(code, { discount_type: 2, value: 3000, usage_limit: 1 }),
    );
    expect(under.body.errors).toEqual({ usage_limit: ["The usage limit cannot be below the 2 uses so far."] });
    expect((await auditOf(id)).map((a) => a.action)).toEqual(["promo.create", "promo.update"]);
  });

  it("the list filters active, paused and expired codes, searches by code and sorts on the server", async () => {
    const manager = await newStaff("manager");
    const prefix = uniqueCode("LST");
    const make = async (suffix: string, extra: Record<string, unknown> = {}) =>
      (await call(manager, "POST", "/admin/promo-codes", codeFields(`${prefix}${suffix}`, extra))).body.data
        .id as number;
    await make("A");
    const paused = await make("B");
    await call(manager, "POST", `/admin/promo-codes/${paused}/pause`);
    await make("C", { starts_at: "2020-01-01T00:00:00Z", ends_at: "2020-02-01T00:00:00Z" });

    const codes = async (query: string) =>
      (
        (await call(manager, "GET", `/admin/promo-codes?search=${prefix}&${query}`)).body.data as { code: string }[]
      ).map((r) => r.code);
    expect(await codes("status=active")).toEqual([`${prefix}A`]);
    expect(await codes("status=paused")).toEqual([`${prefix}B`]);
    expect(await codes("status=expired")).toEqual([`${prefix}C`]);
    expect(await codes("sort=code&dir=desc")).toEqual([`${prefix}C`, `${prefix}B`, `${prefix}A`]);
    const paged = await call(manager, "GET", `/admin/promo-codes?search=${prefix}&sort=code&dir=asc&per_page=2&page=2`);
    expect(paged.body.data.map((r: { code: string }) => r.code)).toEqual([`${prefix}C`]);
    expect(paged.body.meta).toMatchObject({ total: 3, last_page: 2, page: 2 });
    expect((await call(manager, "GET", "/admin/promo-codes?status=nope")).status).toBe(422);
  });

  it("support, shoppers and guests cannot see or change promo codes", async () => {
    const [support, shopper, guest] = await Promise.all([newStaff("support"), newUser(), newGuest()]);
    expect((await call(support, "GET", "/admin/promo-codes")).status).toBe(403);
    expect((await call(support, "POST", "/admin/promo-codes", codeFields(uniqueCode()))).status).toBe(403);
    for (const who of [shopper, guest, null]) {
      expect((await call(who, "GET", "/admin/promo-codes")).status).toBe(404);
      // A stranger learns nothing, not even that the input was wrong.
      expect((await call(who, "POST", "/admin/promo-codes", {})).status).toBe(404);
      expect((await call(who, "POST", "/admin/promo-codes/1/pause")).status).toBe(404);
    }
  });

  it("malformed input is a 422 with field errors, never a 5xx", async () => {
    const manager = await newStaff("manager");
    const bodies: unknown[] = [
      [],
      "a string",
      { ...codeFields(uniqueCode()), value: 1e20 },
      { ...codeFields(uniqueCode()), code: "A".repeat(1000) },
      { ...codeFields(uniqueCode()), starts_at: "2030-13-45T99:99Z" },
      { ...codeFields(uniqueCode()), ends_at: 20300101 },
      { ...codeFields(uniqueCode()), discount_type: "1" },
      { ...codeFields(uniqueCode()), usage_limit: -1, per_user_limit: 0 },
    ];
    for (const body of bodies) {
      const answer = await call(manager, "POST", "/admin/promo-codes", body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(Object.keys(answer.body.errors ?? {}).length).toBeGreaterThan(0);
    }
    for (const query of [
      "page=0",
      "per_page=1000",
      "sort=value;DROP TABLE promo_codes",
      "dir=sideways",
      "search=" + "x".repeat(200),
    ])
      expect((await call(manager, "GET", `/admin/promo-codes?${query}`)).status, query).toBe(422);
    // A search with LIKE's own wildcards finds them literally.
    expect((await call(manager, "GET", "/admin/promo-codes?search=%25_%25")).body.data).toEqual([]);
  });

  it("an unknown code id is a 404", async () => {
    const manager = await newStaff("manager");
    expect((await call(manager, "GET", "/admin/promo-codes/999999999")).status).toBe(404);
    expect((await call(manager, "POST", "/admin/promo-codes/abc/pause")).status).toBe(404);
    expect((await call(manager, "PUT", "/admin/promo-codes/999999999", codeFields(uniqueCode()))).status).toBe(404);
  });
});

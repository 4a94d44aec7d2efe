import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ConsoleAttribute } from "../../contract/console-catalogue-shapes";
import type { ProductDetails } from "../../contract/catalogue";
import { seedCatalogue } from "../support/catalogue";
import { call } from "../support/commerce";
import { newStaff, type Staff } from "../support/console";

/**
 * The console edits a product's typed specifications: its category's attributes with the product's
 * values; a manager sets or clears them, each value checked against its attribute's type, the
 * whole edit refused when one value is, with an audit line, and the shop shows the change.
 */

let manager: Staff;
let support: Staff;
const idOf = async (slug: string) =>
  (await env.DB.prepare("SELECT id FROM products WHERE slug = ?").bind(slug).first<number>("id"))!;

async function shown(slug: string): Promise<ProductDetails> {
  const res = await SELF.fetch(`https://shop.test/backend/products/${slug}`, {
    headers: { "content-language": "en", "cache-control": "no-cache" },
  });
  return ((await res.json()) as { data: ProductDetails }).data;
}

beforeAll(async () => {
  await seedCatalogue(env.DB);
  [manager, support] = await Promise.all([newStaff("manager"), newStaff("support")]);
});

describe("a product's typed specifications in the console", () => {
  it("lists its category's attributes in order, with their options and the product's values", async () => {
    const res = await call<ConsoleAttribute[]>(
      support,
      "GET",
      `/admin/products/${await idOf("dell-xps-13")}/attributes`,
    );
    expect(res.status).toBe(200);
    const byCode = new Map(res.body.data.map((a) => [a.code, a]));
    expect(res.body.data.map((a) => a.code)).toEqual([
      "screen_size",
      "refresh_rate",
      "touch_screen",
      "chip",
      "ram",
      "storage",
      "os",
    ]);
    expect(byCode.get("ram")).toMatchObject({ type: "number", unit_en: "GB", unit_ar: "جيجابايت", value: 16 });
    expect(byCode.get("storage")?.options.map((o) => o.code)).toEqual(["64gb", "128gb", "256gb", "512gb", "1tb"]);
    expect(byCode.get("touch_screen")?.value).toBe(false);
    expect(byCode.get("chip")?.value).toEqual({ en: "Intel Core Ultra 7 155H", ar: "Intel Core Ultra 7 155H" });
  });

  it("a manager sets and clears values; the audit names what changed and the product page shows it", async () => {
    const id = await idOf("hp-victus-15");
    const res = await call<ConsoleAttribute[]>(manager, "PUT", `/admin/products/${id}/attributes`, {
      attributes: { ram: 32, storage: "1tb", touch_screen: null, chip: { en: "AMD Ryzen 7", ar: "إيه إم دي رايزن 7" } },
    });
    expect(res.status).toBe(200);
    const byCode = new Map(res.body.data.map((a) => [a.code, a.value]));
    expect(byCode.get("ram")).toBe(32);
    expect(byCode.get("storage")).toBe("1tb");
    expect(byCode.get("touch_screen")).toBeNull();
    const audit = await env.DB.prepare(
      "SELECT before_json, after_json FROM audit_log WHERE action = 'product.attributes' AND entity_id = ? ORDER BY id DESC",
    )
      .bind(String(id))
      .first<{ before_json: string; after_json: string }>();
    expect(JSON.parse(audit!.before_json)).toEqual({
      ram: 8,
      storage: "512gb",
      touch_screen: false,
      chip: { en: "AMD Ryzen 5 7535HS", ar: "AMD Ryzen 5 7535HS" },
    });
    expect(JSON.parse(audit!.after_json)).toMatchObject({ ram: 32, touch_screen: null });
    const page = await shown("hp-victus-15");
    expect(page.attributes?.find((a) => a.code === "ram")).toMatchObject({ value: 32 });
    expect(page.attributes?.some((a) => a.code === "touch_screen")).toBe(false);
  });

  it("refuses the whole edit when one value is wrong, with a bilingual error per code, and writes nothing", async () => {
    const id = await idOf("macbook-air-13-m3");
    const before = await call<ConsoleAttribute[]>(manager, "GET", `/admin/products/${id}/attributes`);
    for (const [lang, texts] of [
      ["en", ["Enter a number from 0 to 1,000,000,000.", "Choose one of the listed values.", "no such specification"]],
      ["ar", ["أدخل رقمًا من 0 إلى", "اختر إحدى القيم المدرجة.", "هذه المواصفة"]],
    ] as const) {
      const res = await SELF.fetch(`http://shop.test/backend/admin/products/${id}/attributes`, {
        method: "PUT",
        headers: { ...manager.headers, "content-type": "application/json", "content-language": lang },
        body: JSON.stringify({
          attributes: {
            ram: -4,
            storage: "2tb",
            five_g: true,
            os: "macos",
            touch_screen: "yes",
            chip: { en: "M4", ar: "" },
          },
        }),
      });
      expect(res.status).toBe(422);
      const body = (await res.json()) as { errors: Record<string, string[]> };
      expect(Object.keys(body.errors).sort()).toEqual([
        "attributes.chip",
        "attributes.five_g",
        "attributes.ram",
        "attributes.storage",
        "attributes.touch_screen",
      ]);
      expect(body.errors["attributes.ram"][0]).toContain(texts[0]);
      expect(body.errors["attributes.storage"][0]).toBe(texts[1]);
      expect(body.errors["attributes.five_g"][0]).toContain(texts[2]);
    }
    const after = await call<ConsoleAttribute[]>(manager, "GET", `/admin/products/${id}/attributes`);
    expect(after.body.data).toEqual(before.body.data);
  });

  it("is a manager's to change: support reads, a shopper or an unknown product learns nothing", async () => {
    const id = await idOf("ipad-air-11-m2");
    expect((await call(support, "PUT", `/admin/products/${id}/attributes`, { attributes: { ram: 16 } })).status).toBe(
      403,
    );
    expect((await call(null, "GET", `/admin/products/${id}/attributes`)).status).toBe(404);
    expect((await call(manager, "GET", "/admin/products/999999/attributes")).status).toBe(404);
    expect(
      (await call(manager, "PUT", `/admin/products/${id}/attributes`, { attributes: { "Bad Code": 1 } })).status,
    ).toBe(422);
  });
});

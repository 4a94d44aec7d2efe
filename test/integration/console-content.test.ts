import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, newUser } from "../support/commerce";
import { newStaff } from "../support/console";

/** "Within seconds": how long a change may take to reach the shop's cached answers. */
const SECONDS = { timeout: 3_000, interval: 200 };

let counter = 0;
const slug = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${counter++}`;

async function auditOf(entity: string, id: number) {
  const { results } = await env.DB.prepare(
    "SELECT action, staff_email, before_json, after_json FROM audit_log WHERE entity = ? AND entity_id = ? ORDER BY id",
  )
    .bind(entity, String(id))
    .all<{ action: string; staff_email: string; before_json: string | null; after_json: string | null }>();
  return results;
}

const version = async () =>
  (await env.DB.prepare("SELECT value FROM versions WHERE name = 'catalogue'").first<number>("value"))!;

/** A product in `categoryId` (and `brandId`), with its search-index rows as the seed writes them. */
async function productIn(categoryId: number, brandId: number | null = null) {
  const s = slug("thing");
  const row = await env.DB.prepare(
    "INSERT INTO products (slug, sku, category_id, brand_id, name_en, name_ar, price, stock) VALUES (?, ?, ?, ?, 'Thing', 'شيء', 1000, 3) RETURNING id",
  )
    .bind(s, s.toUpperCase(), categoryId, brandId)
    .first<{ id: number }>();
  await env.DB.prepare("INSERT INTO product_search (rowid, name, body) VALUES (?, 'thing', 'old')").bind(row!.id).run();
  return row!.id;
}

const category = (extra: Record<string, unknown> = {}) => ({
  slug: slug("cat"),
  name_en: "Drones",
  name_ar: "طائرات مسيّرة",
  icon: "drone",
  sort_order: 5,
  ...extra,
});

describe("categories in the console", () => {
  it("a manager creates, renames and deletes a category; each step is one audit line and bumps the catalogue version", async () => {
    const manager = await newStaff("manager");
    const v0 = await version();
    const created = await call(manager, "POST", "/admin/categories", category());
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    expect(created.body.data).toMatchObject({ name_en: "Drones", products: 0, children: 0, parent_id: null });
    expect(await version()).toBe(v0 + 1);

    const input = category({ slug: created.body.data.slug, name_en: "Camera drones" });
    const renamed = await call(manager, "PUT", `/admin/categories/${id}`, input);
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name_en).toBe("Camera drones");

    expect((await call(manager, "DELETE", `/admin/categories/${id}`)).status).toBe(200);
    expect((await call(manager, "GET", `/admin/categories/${id}`)).status).toBe(404);

    const audit = await auditOf("category", id);
    expect(audit.map((a) => a.action)).toEqual(["category.create", "category.update", "category.delete"]);
    expect(audit.every((a) => a.staff_email === manager.email)).toBe(true);
    expect(JSON.parse(audit[1]!.before_json!)).toMatchObject({ name_en: "Drones" });
    expect(JSON.parse(audit[1]!.after_json!)).toMatchObject({ name_en: "Camera drones" });
    expect(await version()).toBe(v0 + 3);
  });

  it("a rename shows in the shop's categories within seconds, even when the list was just read and cached", async () => {
    const owner = await newStaff("owner");
    const created = await call(owner, "POST", "/admin/categories", category({ name_en: "Gimbals" }));
    const id = created.body.data.id as number;
    await productIn(id);
    const before = await call(null, "GET", "/categories");
    expect(JSON.stringify(before.body.data)).toContain("Gimbals");

    const renamed = await call(owner, "PUT", `/admin/categories/${id}`, {
      ...category(),
      slug: created.body.data.slug,
      name_en: "Stabilisers",
    });
    expect(renamed.status).toBe(200);
    // Every isolate reads the catalogue version at most once a second (worker/backend/cache.ts).
    await expect
      .poll(async () => JSON.stringify((await call(null, "GET", "/categories")).body.data), SECONDS)
      .toMatch(/Stabilisers/);
  });

  it("a new slug filters the product list at once (the kept taxonomy follows the catalogue version)", async () => {
    const owner = await newStaff("owner");
    const created = await call(owner, "POST", "/admin/categories", category());
    const id = created.body.data.id as number;
    const product = await productIn(id);
    const first = await call(null, "GET", `/products?category=${created.body.data.slug}`);
    expect(first.body.data.map((p: { id: number }) => p.id)).toEqual([product]);
    const next = slug("moved");
    expect((await call(owner, "PUT", `/admin/categories/${id}`, category({ slug: next }))).status).toBe(200);
    const moved = await call(null, "GET", `/products?category=${next}`);
    expect(moved.body.data.map((p: { id: number }) => p.id)).toEqual([product]);
  });

  it("renaming a category re-indexes its products (and its subcategories' products) for search", async () => {
    const owner = await newStaff("owner");
    const parent = (await call(owner, "POST", "/admin/categories", category())).body.data;
    const child = (await call(owner, "POST", "/admin/categories", category({ parent_id: parent.id, name_en: "Parts" })))
      .body.data;
    const product = await productIn(child.id);
    const renamed = await call(owner, "PUT", `/admin/categories/${parent.id}`, {
      ...category(),
      slug: parent.slug,
      name_en: "Quadcopters",
    });
    expect(renamed.status).toBe(200);
    const body = await env.DB.prepare("SELECT body FROM product_search WHERE rowid = ?")
      .bind(product)
      .first<string>("body");
    expect(body).toContain("quadcopt");
    expect(body).toContain("part");
    expect(body).not.toContain("old");
  });

  it("deleting a category that still has products is refused, and nothing changes", async () => {
    const manager = await newStaff("manager");
    const created = (await call(manager, "POST", "/admin/categories", category())).body.data;
    await productIn(created.id);
    const v0 = await version();
    const refused = await call(manager, "DELETE", `/admin/categories/${created.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/still has 1 products/);
    expect((await call(manager, "GET", `/admin/categories/${created.id}`)).body.data).toMatchObject({ products: 1 });
    expect((await auditOf("category", created.id)).map((a) => a.action)).toEqual(["category.create"]);
    expect(await version()).toBe(v0);
  });

  it("a category with subcategories cannot be deleted, and cannot be put under its own subcategory", async () => {
    const manager = await newStaff("manager", "ar");
    const parent = (await call(manager, "POST", "/admin/categories", category())).body.data;
    const child = (await call(manager, "POST", "/admin/categories", category({ parent_id: parent.id }))).body.data;
    const deleting = await call(manager, "DELETE", `/admin/categories/${parent.id}`);
    expect(deleting.status).toBe(409);
    expect(deleting.body.message).toMatch(/فئات فرعية/);
    const loop = await call(manager, "PUT", `/admin/categories/${parent.id}`, {
      ...category(),
      slug: parent.slug,
      parent_id: child.id,
    });
    expect(loop.status).toBe(422);
    expect(loop.body.errors!.parent_id[0]).toMatch(/نفسها/);
    const self = await call(manager, "PUT", `/admin/categories/${parent.id}`, {
      ...category(),
      slug: parent.slug,
      parent_id: parent.id,
    });
    expect(self.status).toBe(422);
  });

  it("a slug already used and a bad slug are field errors, never a 500", async () => {
    const manager = await newStaff("manager");
    const first = (await call(manager, "POST", "/admin/categories", category())).body.data;
    const taken = await call(manager, "POST", "/admin/categories", category({ slug: first.slug }));
    expect(taken.status).toBe(422);
    expect(taken.body.errors!.slug).toBeDefined();
    const bad = await call(manager, "POST", "/admin/categories", category({ slug: "Not A Slug", name_ar: "" }));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors!).sort()).toEqual(["name_ar", "slug"]);
  });
});

describe("brands in the console", () => {
  it("a rename re-indexes the brand's products, and a brand with products cannot be deleted", async () => {
    const owner = await newStaff("owner");
    const brand = (
      await call(owner, "POST", "/admin/brands", { slug: slug("brand"), name_en: "Acme", name_ar: "أكمي" })
    ).body.data;
    const categoryId = (await call(owner, "POST", "/admin/categories", category())).body.data.id as number;
    const product = await productIn(categoryId, brand.id);
    const renamed = await call(owner, "PUT", `/admin/brands/${brand.id}`, {
      slug: brand.slug,
      name_en: "Zenith",
      name_ar: "زينيث",
    });
    expect(renamed.status).toBe(200);
    const body = await env.DB.prepare("SELECT body FROM product_search WHERE rowid = ?")
      .bind(product)
      .first<string>("body");
    expect(body).toContain("zenith");
    const refused = await call(owner, "DELETE", `/admin/brands/${brand.id}`);
    expect(refused.status).toBe(409);
    expect((await call(owner, "GET", `/admin/brands/${brand.id}`)).status).toBe(200);
    expect((await auditOf("brand", brand.id)).map((a) => a.action)).toEqual(["brand.create", "brand.update"]);
  });
});

describe("brands without products", () => {
  it("a brand no product uses is deleted, with its audit line, and leaves the shop's brands", async () => {
    const manager = await newStaff("manager");
    const brandSlug = slug("brand");
    const brand = (await call(manager, "POST", "/admin/brands", { slug: brandSlug, name_en: "Nova", name_ar: "نوفا" }))
      .body.data;
    expect((await call(manager, "DELETE", `/admin/brands/${brand.id}`)).status).toBe(200);
    expect((await call(manager, "GET", `/admin/brands/${brand.id}`)).status).toBe(404);
    expect((await auditOf("brand", brand.id)).map((a) => a.action)).toEqual(["brand.create", "brand.delete"]);
    const shop = await call(null, "GET", "/brands");
    expect(JSON.stringify(shop.body.data)).not.toContain(brandSlug);
  });
});

describe("services and content pages in the console", () => {
  it("a manager edits a page in both languages and the shop's page says it within seconds", async () => {
    const manager = await newStaff("manager");
    const pageSlug = slug("page");
    const input = {
      slug: pageSlug,
      title_en: "Returns",
      title_ar: "الإرجاع",
      excerpt_en: "How to return",
      excerpt_ar: "كيف ترجع",
      body_en: "Fourteen days.",
      body_ar: "أربعة عشر يومًا.",
      sort_order: 1,
    };
    const created = await call(manager, "POST", "/admin/pages", input);
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    expect((await call(null, "GET", `/pages/${pageSlug}`)).body.data.body).toBe("Fourteen days.");
    const edited = await call(manager, "PUT", `/admin/pages/${id}`, {
      ...input,
      body_en: "Thirty days.",
      body_ar: "ثلاثون يومًا.",
    });
    expect(edited.status).toBe(200);
    await expect
      .poll(async () => (await call(null, "GET", `/pages/${pageSlug}`)).body.data.body, SECONDS)
      .toBe("Thirty days.");
    const ar = await env.DB.prepare("SELECT body_ar FROM pages WHERE id = ?").bind(id).first<string>("body_ar");
    expect(ar).toBe("ثلاثون يومًا.");
    expect((await call(manager, "DELETE", `/admin/pages/${id}`)).status).toBe(200);
    await expect.poll(async () => (await call(null, "GET", `/pages/${pageSlug}`)).status, SECONDS).toBe(404);
    expect((await auditOf("page", id)).map((a) => a.action)).toEqual(["page.create", "page.update", "page.delete"]);
  });

  it("a service keeps its features lists in both languages", async () => {
    const owner = await newStaff("owner");
    const input = {
      slug: slug("svc"),
      name_en: "Screen repair",
      name_ar: "إصلاح الشاشة",
      summary_en: "Same day",
      summary_ar: "في اليوم نفسه",
      description_en: "We fix screens.",
      description_ar: "نصلح الشاشات.",
      features_en: ["Original parts", " ", "Warranty"],
      features_ar: ["قطع أصلية", "ضمان"],
      icon: "wrench",
      price_from: 15000,
    };
    const created = await call(owner, "POST", "/admin/services", input);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      features_en: ["Original parts", "Warranty"],
      features_ar: ["قطع أصلية", "ضمان"],
      sort_order: 0,
    });
    const shop = await call(null, "GET", `/services/${input.slug}`);
    expect(shop.body.data.features).toEqual(["Original parts", "Warranty"]);
    const id = created.body.data.id as number;
    expect((await call(owner, "PUT", `/admin/services/${id}`, { ...input, price_from: -1 })).status).toBe(422);
    expect((await auditOf("service", id)).map((a) => a.action)).toEqual(["service.create"]);
    expect((await call(owner, "DELETE", `/admin/services/${id}`)).status).toBe(200);
    expect((await auditOf("service", id)).map((a) => a.action)).toEqual(["service.create", "service.delete"]);
  });
});

describe("who may change content", () => {
  it("support gets 403 on every write and a shopper 404, and nothing is written", async () => {
    const support = await newStaff("support");
    const shopper = await newUser();
    const manager = await newStaff("manager");
    const cat = (await call(manager, "POST", "/admin/categories", category())).body.data;
    const auditBefore = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log").first<number>("n");
    const writes: [string, string, unknown?][] = [
      ["POST", "/admin/categories", category()],
      ["PUT", `/admin/categories/${cat.id}`, category()],
      ["DELETE", `/admin/categories/${cat.id}`],
      ["POST", "/admin/brands", { slug: slug("b"), name_en: "B", name_ar: "ب" }],
      ["POST", "/admin/pages", {}],
      ["POST", "/admin/services", {}],
      ["POST", "/admin/inventory/adjustments", { product_id: 1, reason: "received", delta: 1 }],
    ];
    for (const [method, path, body] of writes) {
      expect((await call(support, method, path, body)).status, `${method} ${path}`).toBe(403);
      expect((await call(shopper, method, path, body)).status, `${method} ${path}`).toBe(404);
      expect((await call(null, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log").first<number>("n")).toBe(auditBefore);
  });
});

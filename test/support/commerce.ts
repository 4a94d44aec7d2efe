// Fixtures for the commerce tests: products, shoppers (guests and users) and a small HTTP client
// that speaks to the backend the way the storefront does (content-language, Bearer or guest-id).
import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { issueToken, mintGuestId } from "../../worker/backend/identity";

let counter = 0;
/** A caller address of its own: checkout, payment start and tracking are rate limited per network. */
export const freshIp = () =>
  `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${Math.floor(1 + Math.random() * 254)}`;
const unique = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

async function ensureCategory(): Promise<number> {
  await env.DB.prepare(
    "INSERT INTO categories (slug, name_en, name_ar) VALUES ('commerce-test', 'Test gadgets', 'أجهزة اختبار') ON CONFLICT (slug) DO NOTHING",
  ).run();
  const row = await env.DB.prepare("SELECT id FROM categories WHERE slug = 'commerce-test'").first<{ id: number }>();
  return row!.id;
}

export interface TestProduct {
  id: number;
  slug: string;
  price: number;
}

/** A product of its own for one test, so tests never share stock. Price in halalas. */
export async function createProduct(
  opts: { price?: number; stock?: number; maxPerOrder?: number; name?: string } = {},
): Promise<TestProduct> {
  const categoryId = await ensureCategory();
  const slug = unique("gadget");
  const price = opts.price ?? 10000;
  const row = await env.DB.prepare(
    `INSERT INTO products (slug, sku, model, category_id, name_en, name_ar, price, stock, max_per_order)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(
      slug,
      slug.toUpperCase(),
      "T-1",
      categoryId,
      opts.name ?? "Test gadget",
      "جهاز اختبار",
      price,
      opts.stock ?? 10,
      opts.maxPerOrder ?? 5,
    )
    .first<{ id: number }>();
  return { id: row!.id, slug, price };
}

export interface TestVariant {
  id: number;
  sku: string;
  price: number;
  stock: number;
  /** Option code → value code. */
  options: { colour: string; storage: string };
}

/** The test phone's variants: two colours by two storage sizes, one of them sold out. */
export const PHONE_VARIANTS = [
  { colour: "blue", storage: "256gb", price: 399900, stock: 5 },
  { colour: "blue", storage: "512gb", price: 479900, stock: 0 },
  { colour: "black", storage: "256gb", price: 399900, stock: 3 },
  { colour: "black", storage: "512gb", price: 479900, stock: 2 },
] as const;

/**
 * A product with a colour (swatches) and a storage option and the four PHONE_VARIANTS, written as
 * the console writes them: the product's first variant becomes the first combination.
 */
export async function createVariantProduct(
  opts: { maxPerOrder?: number } = {},
): Promise<TestProduct & { variants: TestVariant[] }> {
  const product = await createProduct({
    price: 399900,
    stock: 5,
    maxPerOrder: opts.maxPerOrder ?? 5,
    name: "Test phone",
  });
  const db = env.DB;
  const sku = product.slug.toUpperCase();
  await db.batch([
    db
      .prepare(
        `INSERT INTO product_options (product_id, code, name_en, name_ar, kind, position) VALUES
         (?1, 'colour', 'Colour', 'اللون', 'swatch', 0), (?1, 'storage', 'Storage', 'السعة', 'button', 1)`,
      )
      .bind(product.id),
    db
      .prepare(
        `INSERT INTO product_option_values (option_id, code, value_en, value_ar, swatch, position)
         SELECT o.id, v.code, v.en, v.ar, v.swatch, v.position FROM product_options o JOIN (
           SELECT 'colour' AS option, 'blue' AS code, 'Blue' AS en, 'أزرق' AS ar, '#1f3a5f' AS swatch, 0 AS position
           UNION ALL SELECT 'colour', 'black', 'Black', 'أسود', '#111111', 1
           UNION ALL SELECT 'storage', '256gb', '256 GB', '256 جيجابايت', NULL, 0
           UNION ALL SELECT 'storage', '512gb', '512 GB', '512 جيجابايت', NULL, 1
         ) v ON v.option = o.code WHERE o.product_id = ?1`,
      )
      .bind(product.id),
    db
      .prepare("UPDATE product_variants SET sku = ?2, position = 0 WHERE product_id = ?1")
      .bind(product.id, `${sku}-BLUE-256GB`),
    ...PHONE_VARIANTS.slice(1).map((v, i) =>
      db
        .prepare(
          `INSERT INTO product_variants (product_id, sku, price, stock, max_per_order, position) VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          product.id,
          `${sku}-${v.colour}-${v.storage}`.toUpperCase(),
          v.price,
          v.stock,
          opts.maxPerOrder ?? 5,
          i + 1,
        ),
    ),
  ]);
  const { results } = await db
    .prepare("SELECT id, sku, price, stock FROM product_variants WHERE product_id = ? ORDER BY position")
    .bind(product.id)
    .all<{ id: number; sku: string; price: number; stock: number }>();
  const variants = results.map((r, i) => ({
    ...r,
    options: { colour: PHONE_VARIANTS[i].colour, storage: PHONE_VARIANTS[i].storage },
  }));
  await db.batch(
    variants.flatMap((v) =>
      (["colour", "storage"] as const).map((option) =>
        db
          .prepare(
            `INSERT INTO variant_option_values (variant_id, option_id, value_id)
             SELECT ?1, o.id, ov.id FROM product_options o JOIN product_option_values ov ON ov.option_id = o.id
             WHERE o.product_id = ?2 AND o.code = ?3 AND ov.code = ?4`,
          )
          .bind(v.id, product.id, option, v.options[option]),
      ),
    ),
  );
  return { ...product, variants };
}

export async function stockOf(productId: number): Promise<number> {
  const row = await env.DB.prepare("SELECT stock FROM products WHERE id = ?")
    .bind(productId)
    .first<{ stock: number }>();
  return row!.stock;
}

export interface Shopper {
  headers: Record<string, string>;
  guestId: string | null;
  userId: number | null;
  email: string;
}

/** A guest with an id the shop minted (known in KV). */
export async function newGuest(lang: "en" | "ar" = "en"): Promise<Shopper> {
  const guestId = await mintGuestId(env);
  return {
    headers: { "guest-id": guestId, "content-language": lang, "cf-connecting-ip": freshIp() },
    guestId,
    userId: null,
    email: `${guestId.slice(0, 8)}@guest.example`,
  };
}

/** A signed-in user with a real bearer token. */
export async function newUser(lang: "en" | "ar" = "en"): Promise<Shopper> {
  const email = `${unique("shopper")}@example.com`;
  const row = await env.DB.prepare(
    "INSERT INTO users (name, email, phone, password_hash) VALUES (?, ?, ?, ?) RETURNING id",
  )
    .bind(
      "Test Shopper",
      email,
      `+9665${Math.floor(10000000 + Math.random() * 89999999)}`,
      "pbkdf2-sha256$100000$unused$unused",
    )
    .first<{ id: number }>();
  const { token } = await issueToken(env.DB, row!.id);
  return {
    headers: { authorization: `Bearer ${token}`, "content-language": lang, "cf-connecting-ip": freshIp() },
    guestId: null,
    userId: row!.id,
    email,
  };
}

export interface Answer<T = unknown> {
  status: number;
  body: { data: T; message?: string; errors?: Record<string, string[]>; meta?: Record<string, unknown> };
}

/** Calls the backend at /backend like the storefront's client does. */
// `any` by default: tests read answer fields loosely and assert on them, typing each is noise.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function call<T = any>(
  shopper: Pick<Shopper, "headers"> | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer<T>> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "cf-connecting-ip": freshIp(),
    ...(shopper?.headers ?? {}),
  };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await SELF.fetch(`http://shop.test/backend${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // A console export answers CSV, not JSON: the test then reads the text as `data`.
  const text = await res.text();
  const json = (res.headers.get("content-type") ?? "").includes("json");
  return { status: res.status, body: (json ? JSON.parse(text) : { data: text }) as Answer<T>["body"] };
}

export const address = {
  name: "Sara Test",
  phone: "+966512345678",
  city: "Riyadh",
  district: "Olaya",
  street: "King Fahd Road",
  building: "2929",
  postal_code: "12211",
};

/** Adds one product and checks out; answers the checkout response. */
export async function checkoutWith(
  shopper: Shopper,
  productId: number,
  quantity = 1,
  extra: Record<string, unknown> = {},
) {
  const add = await call(shopper, "POST", "/cart/add-product", { product_id: productId, quantity });
  if (add.status !== 200) return add;
  return call(shopper, "POST", "/checkout", {
    idempotency_key: crypto.randomUUID(),
    email: shopper.email,
    address,
    shipping_method: "standard",
    payment_method: "card",
    ...extra,
  });
}

/** A signed-in user whose account is verified (a code to its email was entered), as `newUser` otherwise. */
export async function newVerifiedUser(lang: "en" | "ar" = "en"): Promise<Shopper> {
  const user = await newUser(lang);
  await env.DB.prepare("UPDATE users SET verified_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?")
    .bind(user.userId)
    .run();
  return user;
}

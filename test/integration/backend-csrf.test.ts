import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { backendApp } from "../../worker/backend";
import type { Env } from "../../worker/env";
import { call, createProduct, freshIp, newGuest } from "../support/commerce";
import { newPendingStaff, newStaff, type Staff } from "../support/console";

/**
 * The backend's cross-site defence: a JSON body only as application/json (a page on another site
 * can send text/plain without asking, never application/json), and no state change from another
 * site, even when the browser attaches what authenticates the caller (Cloudflare Access's cookie,
 * which Access turns into `Cf-Access-Jwt-Assertion` on every request it lets through).
 */

const SHOP = "http://shop.test";
const ATTACKER = "https://attacker.example";

const promo = (code: string) => ({
  code,
  discount_type: 1,
  value: 100,
  max_discount: null,
  starts_at: null,
  ends_at: null,
  min_order: 0,
  usage_limit: null,
  per_user_limit: null,
});

const promoCount = async (code: string) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM promo_codes WHERE code = ?").bind(code).first<number>("n")) ?? 0;

describe("JSON bodies", () => {
  it("cross-site form post: a text/plain body to /backend is refused (415)", async () => {
    const owner = await newStaff("owner");
    const code = `CSRF${Date.now().toString(36).toUpperCase()}`;
    // What `<form enctype="text/plain">` sends: a body that parses as JSON, typed text/plain.
    const res = await SELF.fetch(`${SHOP}/backend/admin/promo-codes`, {
      method: "POST",
      headers: { ...owner.headers, "content-type": "text/plain" },
      body: JSON.stringify(promo(code)),
    });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toMatch(/application\/json/);
    expect(await promoCount(code)).toBe(0);
    // A body with no type at all, a form's types, and a shopper's route alike.
    const guest = await newGuest();
    const product = await createProduct();
    for (const type of [null, "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"]) {
      const headers: Record<string, string> = { ...guest.headers };
      if (type) headers["content-type"] = type;
      const added = await SELF.fetch(`${SHOP}/backend/cart/add-product`, {
        method: "POST",
        headers,
        body: JSON.stringify({ product_id: product.id, quantity: 1 }),
      });
      expect(added.status, String(type)).toBe(415);
    }
    // The CSV import takes text/csv only.
    const csv = await SELF.fetch(`${SHOP}/backend/admin/products/import?dry_run=0`, {
      method: "POST",
      headers: { ...owner.headers, "content-type": "text/plain" },
      body: "sku,slug,name_en,name_ar,price,category_id\r\n",
    });
    expect(csv.status).toBe(415);
    // The same calls as the storefront makes them still work.
    expect((await call(owner, "POST", "/admin/promo-codes", promo(code))).status).toBe(201);
    expect((await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 })).status).toBe(200);
  });

  it("an empty body with no type still reads as no fields, and a typed JSON body with a charset is read", async () => {
    const guest = await newGuest();
    const empty = await SELF.fetch(`${SHOP}/backend/cart/add-product`, { method: "POST", headers: guest.headers });
    expect(empty.status).toBe(422);
    const product = await createProduct();
    const typed = await SELF.fetch(`${SHOP}/backend/cart/add-product`, {
      method: "POST",
      headers: { ...guest.headers, "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ product_id: product.id, quantity: 1 }),
    });
    expect(typed.status).toBe(200);
  });
});

describe("state changes from another site", () => {
  let privateKey: CryptoKey;
  let jwks: { keys: object[] };
  const team = "https://souq-test.cloudflareaccess.com";
  const audience = "console-aud-tag";
  const accessEnv = () => ({ ...env, ACCESS_TEAM_DOMAIN: team, ACCESS_AUD: audience }) as Env;

  beforeAll(async () => {
    const pair = await generateKeyPair("RS256");
    privateKey = pair.privateKey;
    jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" }] };
  });

  afterEach(() => vi.restoreAllMocks());

  /** Access in front of the console: its keys published at the team domain, and a token it signed for `email`. */
  async function accessFor(staff: Staff): Promise<string> {
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url === `${team}/cdn-cgi/access/certs`) return Promise.resolve(Response.json(jwks));
      return realFetch(input, init);
    });
    return new SignJWT({ email: staff.email })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(team)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 600)
      .sign(privateKey);
  }

  /** A console write carrying only what the browser and Access add: no bearer token. */
  const write = (assertion: string, code: string, headers: Record<string, string>) =>
    backendApp.request(
      "/admin/promo-codes",
      {
        method: "POST",
        headers: {
          "cf-access-jwt-assertion": assertion,
          "content-type": "application/json",
          "cf-connecting-ip": freshIp(),
          ...headers,
        },
        body: JSON.stringify(promo(code)),
      },
      accessEnv(),
    );

  it("cross-site request: a console write from another origin is refused even with Access's cookie", async () => {
    // Signed in to Access only: no bearer token and no console code of the shop's own.
    const owner = await newPendingStaff("owner");
    const assertion = await accessFor(owner);
    const code = `XS${Date.now().toString(36).toUpperCase()}`;
    const attacks: Record<string, string>[] = [
      { origin: ATTACKER, "sec-fetch-site": "cross-site" },
      { origin: ATTACKER },
      { "sec-fetch-site": "cross-site" },
      // A sibling subdomain is "same-site": the cookie goes with it under SameSite=Lax.
      { origin: "https://blog.shop.test", "sec-fetch-site": "same-site" },
      { origin: "null", "sec-fetch-site": "cross-site" },
    ];
    for (const headers of attacks) {
      const res = await write(assertion, code, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    expect(await promoCount(code)).toBe(0);
    // The same write from the shop's own console page passes: Access alone authenticates it.
    const own = await write(assertion, code, { origin: "http://localhost", "sec-fetch-site": "same-origin" });
    expect(own.status).toBe(201);
    expect(await promoCount(code)).toBe(1);
  });

  it("the shop's own writes pass: same-origin pages (the sandbox card page sends Origin: null), server calls and webhooks", async () => {
    const owner = await newPendingStaff("owner");
    const assertion = await accessFor(owner);
    const code = `OWN${Date.now().toString(36).toUpperCase()}`;
    // A page under `Referrer-Policy: no-referrer` posts its forms with `Origin: null`, still same-origin.
    expect((await write(assertion, code, { origin: "null", "sec-fetch-site": "same-origin" })).status).toBe(201);
    // No Origin and no Sec-Fetch-Site: a server-to-server call (a payment gateway's webhook, a tool).
    const hook = await SELF.fetch(`${SHOP}/backend/payments/webhook/sandbox`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "evt_unsigned" }),
    });
    expect(hook.status).not.toBe(403);
    expect(hook.status).not.toBe(415);
    // Reads are never refused, from anywhere.
    const read = await SELF.fetch(`${SHOP}/backend/products?per_page=1`, {
      headers: { origin: ATTACKER, "sec-fetch-site": "cross-site" },
    });
    expect(read.status).toBe(200);
  });
});

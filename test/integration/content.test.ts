import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sha256Hex } from "../../worker/backend/identity";
import { hashedNetwork } from "../../worker/backend/services/shared/rate-limit";
import { beforeAll, describe, expect, it } from "vitest";
import type {
  ContentPage,
  HomeData,
  PageSummary,
  Service,
  ServiceDetails,
} from "../../worker/backend/services/catalogue/content";
import { seedCatalogue } from "../support/catalogue";
import { awayFromMinuteEdge, COUNTING_TIMEOUT } from "../support/accounts";

type Lang = "en" | "ar";
interface Body<T> {
  data: T;
  message?: string;
  errors?: Record<string, string[]>;
}

async function get<T>(path: string, lang: Lang = "en"): Promise<{ status: number; headers: Headers; body: Body<T> }> {
  const res = await SELF.fetch(`https://shop.test/backend${path}`, { headers: { "content-language": lang } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Body<T> };
}

async function contact(body: unknown, { lang = "en", ip }: { lang?: Lang; ip: string }) {
  const res = await SELF.fetch("https://shop.test/backend/contact", {
    method: "POST",
    headers: { "content-type": "application/json", "content-language": lang, "cf-connecting-ip": ip },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Body<{ id: number }> };
}

const ARABIC = /[\u0600-\u06FF]/;
const uniqueIp = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}-${crypto.randomUUID().slice(0, 6)}`;
const valid = {
  name: "Sara Al-Harbi",
  email: "sara@example.com",
  phone: "+966 50 123 4567",
  subject: "Order question",
  message: "When will my TV be delivered to Jeddah?",
};

beforeAll(async () => {
  await seedCatalogue(env.DB);
});

describe("content pages", () => {
  it("lists the pages as {slug, title, excerpt}, the required slugs included, in both languages", async () => {
    const en = await get<PageSummary[]>("/pages");
    expect(en.status).toBe(200);
    expect(en.body.data.map((p) => p.slug)).toEqual(
      expect.arrayContaining(["about-us", "privacy-policy", "terms", "shipping-returns"]),
    );
    expect(Object.keys(en.body.data[0]).sort()).toEqual(["excerpt", "slug", "title"]);
    const ar = await get<PageSummary[]>("/pages", "ar");
    expect(ar.body.data.every((p) => ARABIC.test(p.title) && ARABIC.test(p.excerpt))).toBe(true);
  });

  it("a page has a plain-text body of paragraphs and ## headings, and an update date", async () => {
    for (const lang of ["en", "ar"] as const) {
      const page = (await get<ContentPage>("/pages/privacy-policy", lang)).body.data;
      expect(page.slug).toBe("privacy-policy");
      const blocks = page.body.split("\n\n");
      expect(blocks.length).toBeGreaterThanOrEqual(5);
      expect(blocks.some((b) => b.startsWith("## "))).toBe(true);
      expect(page.body).not.toMatch(/<[a-z]/i);
      expect(new Date(page.updated_at).toString()).not.toBe("Invalid Date");
      if (lang === "ar") expect(page.title).toBe("سياسة الخصوصية");
    }
  });

  it("an unknown page is a 404 JSON in the caller's language", async () => {
    const res = await get<unknown>("/pages/nope", "ar");
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("الصفحة غير موجودة.");
    expect((await get<unknown>("/pages/%27%3B--")).status).toBe(404);
  });
});

describe("services", () => {
  it("lists the shop's services with prices from, localized", async () => {
    const en = await get<Service[]>("/services");
    expect(en.body.data.map((s) => s.slug)).toEqual(
      expect.arrayContaining([
        "device-repair",
        "installation",
        "extended-warranty",
        "data-transfer",
        "trade-in",
        "device-setup",
      ]),
    );
    expect(Object.keys(en.body.data[0]).sort()).toEqual([
      "currency",
      "icon",
      "id",
      "name",
      "price_from",
      "slug",
      "summary",
    ]);
    expect(en.body.data.every((s) => Number.isInteger(s.price_from) && s.currency === "SAR")).toBe(true);
    const ar = await get<Service[]>("/services", "ar");
    expect(ar.body.data.every((s) => ARABIC.test(s.name))).toBe(true);
  });

  it("a service adds its description and features", async () => {
    const s = (await get<ServiceDetails>("/services/device-repair", "ar")).body.data;
    expect(s.name).toBe("صيانة الأجهزة");
    expect(s.description).toMatch(ARABIC);
    expect(s.features.length).toBeGreaterThanOrEqual(3);
    const missing = await get<unknown>("/services/nope");
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("Service not found.");
  });
});

describe("the home page", () => {
  it("answers banners, top-level categories, featured products, new arrivals and services", async () => {
    const res = await get<HomeData>("/home");
    expect(res.status).toBe(200);
    const home = res.body.data;
    expect(home.banners).toHaveLength(3);
    expect(Object.keys(home.banners[0]).sort()).toEqual(["cta_label", "id", "image", "link", "subtitle", "title"]);
    expect(home.banners[0].image).toMatch(/^\/backend\/media\/banners\/\d+\.svg/);
    expect(home.banners.every((b) => b.link.startsWith("/"))).toBe(true);
    expect(home.categories.length).toBeGreaterThanOrEqual(8);
    expect(home.categories.every((c) => c.parent_id === null)).toBe(true);
    expect(home.featured.length).toBeGreaterThan(0);
    expect(home.featured.every((p) => p.is_featured)).toBe(true);
    expect(home.new_arrivals.length).toBeGreaterThan(0);
    expect(home.new_arrivals.every((p) => p.is_new)).toBe(true);
    expect(home.services.length).toBe(6);
    expect(res.headers.get("cache-control")).toBe("public, max-age=30, stale-while-revalidate=300");
  });

  it("is localized in Arabic", async () => {
    const home = (await get<HomeData>("/home", "ar")).body.data;
    expect(home.banners[0].title).toMatch(ARABIC);
    // The art is mirrored for right-to-left pages.
    expect(home.banners[0].image).toContain("dir=rtl");
    const mirrored = await SELF.fetch(`https://shop.test${home.banners[0].image}`);
    expect(mirrored.status).toBe(200);
    expect(await mirrored.text()).not.toBe(
      await (await SELF.fetch(`https://shop.test/backend/media/banners/${home.banners[0].id}.svg`)).text(),
    );
    expect(home.featured[0].name).toMatch(ARABIC);
    expect(home.categories[0].name).toMatch(ARABIC);
  });
});

describe("the contact form", () => {
  it("stores a valid message and answers 201 with its id and a localized thank-you", async () => {
    const ip = uniqueIp();
    const res = await contact(valid, { ip, lang: "ar" });
    expect(res.status).toBe(201);
    expect(res.body.message).toMatch(ARABIC);
    const row = await env.DB.prepare("SELECT * FROM contact_messages WHERE id = ?")
      .bind(res.body.data.id)
      .first<Record<string, unknown>>();
    expect(row).toMatchObject({
      name: valid.name,
      email: valid.email,
      phone: valid.phone,
      subject: valid.subject,
      message: valid.message,
      lang: "ar",
    });
    // The IP is kept only as a hash.
    expect(row?.ip_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(ip);
  });

  it("stores the sender's address as a keyed hash, which a table of every IPv4 address's SHA-256 cannot reverse", async () => {
    const ip = uniqueIp();
    const res = await contact(valid, { ip });
    const row = await env.DB.prepare("SELECT ip_hash FROM contact_messages WHERE id = ?")
      .bind(res.body.data.id)
      .first<{ ip_hash: string }>();
    expect(row!.ip_hash).not.toBe(await sha256Hex(ip));
    expect(row!.ip_hash).toBe(await hashedNetwork(env, ip));
  });

  it("phone is optional and accepts Arabic-Indic digits", async () => {
    const { phone: _omit, ...noPhone } = valid;
    expect((await contact(noPhone, { ip: uniqueIp() })).status).toBe(201);
    expect((await contact({ ...valid, phone: "" }, { ip: uniqueIp() })).status).toBe(201);
    const arabicDigits = await contact({ ...valid, phone: "٠٥٠١٢٣٤٥٦٧" }, { ip: uniqueIp() });
    expect(arabicDigits.status).toBe(201);
    const row = await env.DB.prepare("SELECT phone FROM contact_messages WHERE id = ?")
      .bind(arabicDigits.body.data.id)
      .first<{ phone: string }>();
    expect(row?.phone).toBe("0501234567");
  });

  it.each([
    ["name", { name: "S" }],
    ["name", { name: "x".repeat(101) }],
    ["email", { email: "not-an-email" }],
    ["phone", { phone: "call me" }],
    ["subject", { subject: "x" }],
    ["subject", { subject: "x".repeat(151) }],
    ["message", { message: "too short" }],
    ["message", { message: "x".repeat(5001) }],
    ["name", { name: 42 }],
    ["email", { email: ["a@b.c"] }],
  ])("refuses a bad %s with 422 and a field error, storing nothing", async (field, change) => {
    const before = (await env.DB.prepare("SELECT COUNT(*) AS n FROM contact_messages").first<{ n: number }>())!.n;
    const res = await contact({ ...valid, ...change }, { ip: uniqueIp() });
    expect(res.status).toBe(422);
    expect(res.body.errors?.[field]?.length).toBeGreaterThan(0);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM contact_messages").first<{ n: number }>())!.n).toBe(before);
  });

  it("field errors come in the caller's language, and a broken body is a 422 too", async () => {
    const ar = await contact({ ...valid, email: "nope" }, { ip: uniqueIp(), lang: "ar" });
    expect(ar.body.errors?.email?.[0]).toMatch(ARABIC);
    expect(ar.body.message).toMatch(ARABIC);
    const broken = await contact("{not json", { ip: uniqueIp() });
    expect(broken.status).toBe(422);
    const empty = await contact({}, { ip: uniqueIp() });
    expect(Object.keys(empty.body.errors ?? {}).sort()).toEqual(["email", "message", "name", "subject"]);
  });

  it(
    "is rate limited per IP: the sixth message within a minute is a 429 with a localized message",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      const ip = uniqueIp();
      await awayFromMinuteEdge();
      for (let i = 0; i < 5; i++) expect((await contact(valid, { ip })).status).toBe(201);
      const limited = await contact(valid, { ip, lang: "ar" });
      expect(limited.status).toBe(429);
      expect(limited.body.message).toMatch(ARABIC);
      // Another sender is not affected.
      expect((await contact(valid, { ip: uniqueIp() })).status).toBe(201);
    },
  );

  it("is never cached", async () => {
    const res = await contact(valid, { ip: uniqueIp() });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-cache")).toBeNull();
  });
});

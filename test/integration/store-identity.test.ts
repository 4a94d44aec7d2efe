import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import ar from "../../locales/ar.json";
import en from "../../locales/en.json";
import type { StoreIdentity } from "../../contract/settings";
import { forgetCatalogueVersion } from "../../worker/backend/cache";
import { call } from "../support/commerce";
import { newStaff } from "../support/console";

/**
 * The store's name and logo (store settings) as the shop reads them: one public, cached read per
 * language, and the web app manifests. A save bumps the catalogue version that every cached copy
 * and kept page is checked against, so the next read shows the new name.
 */

// Rows removed behind the console's back: the version moves as a save would move it.
afterEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM store_settings"),
    env.DB.prepare("UPDATE versions SET value = value + 1 WHERE name = 'catalogue'"),
  ]);
  forgetCatalogueVersion();
});

const inLang = (lang: "en" | "ar") => ({ headers: { "content-language": lang } });
const version = async () =>
  Number(await env.DB.prepare("SELECT value FROM versions WHERE name = 'catalogue'").first("value"));

async function store(lang: "en" | "ar") {
  const res = await SELF.fetch("http://shop.test/backend/store", { headers: { "content-language": lang } });
  return { cache: res.headers.get("x-cache"), data: ((await res.json()) as { data: StoreIdentity }).data };
}

async function manifest(lang: "en" | "ar") {
  const res = await SELF.fetch(`http://shop.test/manifest.${lang}.webmanifest`);
  expect(res.headers.get("content-type")).toBe("application/manifest+json");
  expect(res.headers.get("cache-control")).toBe("no-cache");
  return (await res.json()) as { name: string; short_name: string; lang: string; start_url: string };
}

describe("the store's name and logo in the shop", () => {
  it("read the built-in name until the owner saves one; a save shows in the next read, cached or not, and in both manifests", async () => {
    expect((await store("en")).data).toEqual({ name: en.app.name, logo_url: "" });
    expect((await store("ar")).data).toEqual({ name: ar.app.name, logo_url: "" });
    // The answer is kept at the edge like the catalogue's other reference lists.
    expect((await store("ar")).cache).toBe("HIT");
    expect(await manifest("ar")).toMatchObject({ name: ar.app.name, short_name: ar.app.shortName, lang: "ar-SA" });

    const owner = await newStaff("owner");
    const before = await version();
    const saved = await call(owner, "PUT", "/admin/settings/store", {
      name_en: "Falcon Gadgets",
      name_ar: "الصقر للأجهزة",
      logo_url: "/backend/media/logo.png",
    });
    expect(saved.status).toBe(200);
    expect(await version()).toBe(before + 1);

    const arAfter = await store("ar");
    expect(arAfter).toEqual({ cache: "MISS", data: { name: "الصقر للأجهزة", logo_url: "/backend/media/logo.png" } });
    expect((await store("en")).data.name).toBe("Falcon Gadgets");
    expect(await manifest("en")).toMatchObject({
      name: "Falcon Gadgets",
      short_name: "Falcon Gadgets",
      start_url: "/en",
    });
    expect(await manifest("ar")).toMatchObject({ name: "الصقر للأجهزة", short_name: "الصقر للأجهزة" });
  });

  it("a save of another section leaves the catalogue version alone; a refused store name changes nothing", async () => {
    const owner = await newStaff("owner");
    const before = await version();
    const shipping = { standard: 1900, express: 4500, free_threshold: 50000 };
    expect((await call(owner, "PUT", "/admin/settings/shipping", shipping)).status).toBe(200);
    const refused = await call(owner, "PUT", "/admin/settings/store", { name_en: "", name_ar: "متجر", logo_url: "" });
    expect(refused.status).toBe(422);
    expect(await version()).toBe(before);
    expect((await call(inLang("en"), "GET", "/store")).body.data).toEqual({ name: en.app.name, logo_url: "" });
  });
});

import { Hono } from "hono";
import ar from "../locales/ar.json";
import en from "../locales/en.json";
import { LOCALES, type Locale } from "../contract/locale";
import { STORE_IDENTITY_PATH, type StoreIdentity } from "../contract/settings";
import { webManifest, webManifestPath } from "../contract/web-manifest";
import { callBackend } from "./backend-client";
import type { HonoEnv } from "./env";

/**
 * `/manifest.{en,ar}.webmanifest`: the locale's web app manifest (contract/web-manifest.ts), named
 * as the owner named the store in the console's settings (the backend's public store read, cached
 * under the catalogue version that a save bumps). A name the owner gave is both the full and the
 * short name; until then, and when the backend cannot say, the locale files' names stand. The
 * browser asks again when it looks for updates: never kept by caches (no-cache).
 */
export const manifestApp = new Hono<HonoEnv>();

const WORDS = { en: en.app, ar: ar.app } as const;

async function storeName(c: Parameters<typeof callBackend>[0], locale: Locale): Promise<string | null> {
  try {
    const res = await callBackend(c, STORE_IDENTITY_PATH, { headers: { "content-language": locale } });
    if (!res.ok) return null;
    const body = (await res.json()) as { data?: Partial<StoreIdentity> };
    const name = body.data?.name;
    return typeof name === "string" && name.trim() ? name : null;
  } catch {
    return null;
  }
}

for (const locale of Object.keys(LOCALES) as Locale[]) {
  manifestApp.get(webManifestPath(locale), async (c) => {
    const words = WORDS[locale];
    const name = await storeName(c, locale);
    const custom = name !== null && name !== words.name;
    const manifest = webManifest(locale, {
      name: custom ? name : words.name,
      short_name: custom ? name : words.shortName,
      description: words.tagline,
    });
    return c.body(`${JSON.stringify(manifest, null, 2)}\n`, 200, {
      "content-type": "application/manifest+json",
      "cache-control": "no-cache",
    });
  });
}

import { LOCALES, type Locale } from "./locale.ts";

/**
 * The web app manifest of each locale (`/manifest.{en,ar}.webmanifest`, linked by app/root.tsx).
 * The edge answers it (worker/manifest.ts) with the store's name as the owner set it in the
 * console's settings, so an installed app and the install prompt carry that name without a
 * redeploy; the icons are the build's (scripts/icons.ts draws them).
 */

export const THEME_COLOR = "#0f5fd7";
export const BACKGROUND_COLOR = "#f6f8fb";

export const MANIFEST_ICONS = [
  { file: "icon-192.png", size: 192, maskable: false },
  { file: "icon-512.png", size: 512, maskable: false },
  { file: "icon-maskable-512.png", size: 512, maskable: true },
] as const;

export const webManifestPath = (locale: Locale) => `/manifest.${locale}.webmanifest`;

/** What a manifest says in words: the app's full and short names and its description. */
export interface ManifestWords {
  name: string;
  short_name: string;
  description: string;
}

export function webManifest(locale: Locale, words: ManifestWords): Record<string, unknown> {
  const info = LOCALES[locale];
  return {
    // One id for both locales: it is the same app whichever language it was installed from.
    id: "/",
    name: words.name,
    short_name: words.short_name,
    description: words.description,
    lang: info.tag,
    dir: info.dir,
    start_url: `/${locale}`,
    scope: "/",
    display: "standalone",
    orientation: "any",
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    categories: ["shopping"],
    icons: MANIFEST_ICONS.map((icon) => ({
      src: `/icons/${icon.file}`,
      sizes: `${icon.size}x${icon.size}`,
      type: "image/png",
      purpose: icon.maskable ? "maskable" : "any",
    })),
  };
}

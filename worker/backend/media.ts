import { Hono } from "hono";
import * as v from "valibot";
import type { BackendEnv } from "./env";
import { notFound } from "./http";
import { productArtFacts, type ProductArtFacts } from "./services/catalogue/product";
import { bannerArtFacts, type BannerArtFacts } from "./services/catalogue/content";
import { readUpload } from "./services/console/media";
import { imageResponse } from "./services/shared/images";
import { readReviewPhoto } from "./services/reviews/photos";
import { REVIEW_PHOTO_KEY } from "../../contract/reviews";
import { validate } from "../../contract/server/validate";

/**
 * Generated product and banner art (no downloads, no binary assets): a deterministic SVG drawn
 * from the product's category (a device silhouette), brand and colour. Plain shapes and text,
 * never a script, so it is safe to serve from our own origin.
 */
export const mediaRoutes = new Hono<BackendEnv>();

const IMMUTABLE = "public, max-age=31536000, immutable";

const HEX = /^#[0-9a-f]{6}$/i;

function rgb(hex: string): [number, number, number] {
  const h = HEX.test(hex) ? hex : "#4b5563";
  return [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];
}

/** Mixes a colour towards white (amount > 0) or black (amount < 0). */
function shade(hex: string, amount: number): string {
  const target = amount > 0 ? 255 : 0;
  const a = Math.abs(amount);
  return `#${rgb(hex)
    .map((c) => Math.round(c + (target - c) * a))
    .map((c) => c.toString(16).padStart(2, "0"))
    .join("")}`;
}

const luminance = (hex: string) => {
  const [r, g, b] = rgb(hex);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
};

/** A stable number from a string, for the background hue. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function escapeXml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (ch) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[ch] ?? ch,
  );
}

/** A device silhouette for a top-level category, centred in an 800×800 box. */
export function silhouette(kind: string, body: string, view: 1 | 2): string {
  const edge = shade(body, luminance(body) > 0.6 ? -0.35 : 0.35);
  const glass = "url(#glass)";
  const stroke = `stroke="${edge}" stroke-width="4"`;
  switch (kind) {
    case "phones":
      return view === 1
        ? `<rect x="290" y="130" width="220" height="440" rx="38" fill="${body}" ${stroke}/>
           <rect x="304" y="146" width="192" height="408" rx="28" fill="${glass}"/>
           <rect x="366" y="160" width="68" height="16" rx="8" fill="#0b0b0c"/>`
        : `<rect x="290" y="130" width="220" height="440" rx="38" fill="${body}" ${stroke}/>
           <rect x="310" y="152" width="110" height="110" rx="26" fill="${shade(body, -0.2)}" ${stroke}/>
           <circle cx="342" cy="184" r="22" fill="#111" stroke="${edge}" stroke-width="3"/>
           <circle cx="388" cy="230" r="22" fill="#111" stroke="${edge}" stroke-width="3"/>
           <circle cx="342" cy="230" r="10" fill="${shade(body, 0.5)}"/>`;
    case "laptops":
      return view === 1
        ? `<rect x="200" y="190" width="400" height="270" rx="16" fill="${body}" ${stroke}/>
           <rect x="216" y="206" width="368" height="238" rx="6" fill="${glass}"/>
           <path d="M150 470 H650 L620 510 H180 Z" fill="${shade(body, 0.15)}" ${stroke}/>
           <rect x="360" y="472" width="80" height="8" rx="4" fill="${edge}"/>`
        : `<path d="M210 260 L590 230 L600 470 L200 470 Z" fill="${body}" ${stroke}/>
           <path d="M150 470 H650 L620 520 H180 Z" fill="${shade(body, 0.15)}" ${stroke}/>
           <circle cx="400" cy="350" r="26" fill="${shade(body, 0.3)}"/>`;
    case "tablets":
      return view === 1
        ? `<rect x="230" y="150" width="340" height="460" rx="30" fill="${body}" ${stroke}/>
           <rect x="248" y="168" width="304" height="424" rx="18" fill="${glass}"/>`
        : `<rect x="230" y="150" width="340" height="460" rx="30" fill="${body}" ${stroke}/>
           <rect x="254" y="174" width="70" height="70" rx="20" fill="${shade(body, -0.2)}"/>
           <circle cx="289" cy="209" r="18" fill="#111"/>
           <circle cx="400" cy="380" r="30" fill="${shade(body, 0.25)}"/>`;
    case "tvs":
      return `<rect x="120" y="190" width="560" height="330" rx="12" fill="#0d0f12" stroke="${edge}" stroke-width="6"/>
           <rect x="134" y="204" width="532" height="302" rx="4" fill="${view === 1 ? glass : body}"/>
           ${view === 1 ? `<path d="M340 520 L300 590 H500 L460 520 Z" fill="${shade(body, -0.2)}"/>` : `<path d="M190 520 L170 590 M610 520 L630 590" stroke="${edge}" stroke-width="14" stroke-linecap="round"/>`}`;
    case "audio":
      return view === 1
        ? `<path d="M230 430 V360 A170 170 0 0 1 570 360 V430" fill="none" stroke="${body}" stroke-width="34" stroke-linecap="round"/>
           <rect x="200" y="400" width="90" height="170" rx="40" fill="${body}" ${stroke}/>
           <rect x="510" y="400" width="90" height="170" rx="40" fill="${body}" ${stroke}/>`
        : `<rect x="250" y="200" width="300" height="380" rx="60" fill="${body}" ${stroke}/>
           <circle cx="400" cy="320" r="70" fill="${shade(body, -0.3)}"/>
           <circle cx="400" cy="480" r="45" fill="${shade(body, -0.3)}"/>`;
    case "cameras":
      return `<rect x="200" y="280" width="400" height="250" rx="26" fill="${body}" ${stroke}/>
           <rect x="250" y="240" width="120" height="50" rx="12" fill="${body}" ${stroke}/>
           <circle cx="${view === 1 ? 420 : 400}" cy="405" r="${view === 1 ? 100 : 80}" fill="${shade(body, -0.4)}" ${stroke}/>
           <circle cx="${view === 1 ? 420 : 400}" cy="405" r="${view === 1 ? 60 : 44}" fill="${glass}"/>
           <circle cx="540" cy="310" r="12" fill="#e11d48"/>`;
    case "gaming":
      return view === 1
        ? `<path d="M260 320 H540 C620 320 660 420 650 500 C640 570 580 580 550 540 L510 490 H290 L250 540 C220 580 160 570 150 500 C140 420 180 320 260 320 Z" fill="${body}" ${stroke}/>
           <circle cx="290" cy="410" r="34" fill="${shade(body, -0.3)}"/>
           <circle cx="510" cy="390" r="14" fill="#22c55e"/><circle cx="540" cy="420" r="14" fill="#ef4444"/>
           <circle cx="480" cy="420" r="14" fill="#3b82f6"/><circle cx="510" cy="450" r="14" fill="#eab308"/>`
        : `<rect x="300" y="150" width="200" height="450" rx="30" fill="${body}" ${stroke}/>
           <rect x="300" y="300" width="200" height="24" fill="${shade(body, -0.3)}"/>
           <rect x="230" y="560" width="340" height="40" rx="16" fill="${shade(body, -0.2)}"/>`;
    case "wearables":
      return `<rect x="340" y="120" width="120" height="160" rx="20" fill="${shade(body, -0.15)}"/>
           <rect x="340" y="520" width="120" height="130" rx="20" fill="${shade(body, -0.15)}"/>
           <rect x="290" y="260" width="220" height="280" rx="${view === 1 ? 56 : 110}" fill="${body}" ${stroke}/>
           <rect x="310" y="280" width="180" height="240" rx="${view === 1 ? 42 : 90}" fill="${glass}"/>
           <rect x="512" y="350" width="18" height="60" rx="8" fill="${edge}"/>`;
    case "smart-home":
      return view === 1
        ? `<circle cx="400" cy="390" r="190" fill="${body}" ${stroke}/>
           <ellipse cx="400" cy="250" rx="120" ry="28" fill="${shade(body, -0.25)}"/>
           <circle cx="400" cy="250" r="18" fill="#38bdf8"/>`
        : `<rect x="210" y="200" width="380" height="260" rx="18" fill="${glass}" stroke="${edge}" stroke-width="6"/>
           <path d="M320 460 L280 580 H520 L480 460 Z" fill="${body}" ${stroke}/>`;
    default:
      // Accessories: a charger brick and its cable.
      return `<rect x="280" y="220" width="240" height="240" rx="34" fill="${body}" ${stroke}/>
           <rect x="340" y="150" width="22" height="80" rx="6" fill="${edge}"/>
           <rect x="438" y="150" width="22" height="80" rx="6" fill="${edge}"/>
           <path d="M400 460 C400 560 ${view === 1 ? "260 540 260 620" : "540 540 540 620"}" fill="none" stroke="${shade(body, -0.2)}" stroke-width="18" stroke-linecap="round"/>
           <circle cx="400" cy="340" r="30" fill="${shade(body, -0.2)}"/>`;
  }
}

/**
 * The product's art: a gradient background and its device silhouette. It carries no text (the
 * brand and name are in its accessible name, and every page shows them beside it): text in an SVG
 * image is laid out and shaped on the page's main thread when the image is painted, with a font
 * lookup per family and size. On the product list, with 12 pieces of art, that was about 20 ms of
 * font work and 30 ms of layout per load in Chromium, unthrottled (docs/PERFORMANCE.md).
 */
export function productSvg(p: ProductArtFacts, view: 1 | 2): string {
  const body = HEX.test(p.colour) ? p.colour : "#4b5563";
  const hue = hash(p.brand || p.slug) % 360;
  const from = `hsl(${hue} 45% ${view === 1 ? 94 : 90}%)`;
  const to = `hsl(${(hue + 40) % 360} 55% ${view === 1 ? 82 : 76}%)`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 800" width="800" height="800" role="img" aria-label="${escapeXml(`${p.brand} ${p.name}`.trim())}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>
    <linearGradient id="glass" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1f2937"/><stop offset="0.55" stop-color="#111827"/><stop offset="1" stop-color="${shade(body, -0.1)}"/></linearGradient>
  </defs>
  <rect width="800" height="800" fill="url(#bg)"/>
  <ellipse cx="400" cy="640" rx="250" ry="22" fill="#000" opacity="0.08"/>
  ${silhouette(p.category, body, view)}
</svg>`;
}

/**
 * A banner's art: its gradient and a large motif at the inline end, so the storefront's words sit
 * at the inline start; `rtl` mirrors the layout for Arabic.
 */
export function bannerSvg(b: BannerArtFacts, rtl = false): string {
  const from = HEX.test(b.colour_from) ? b.colour_from : "#1e293b";
  const to = HEX.test(b.colour_to) ? b.colour_to : "#334155";
  const kind =
    { phone: "phones", laptop: "laptops", headphones: "audio", tv: "tvs", gamepad: "gaming", watch: "wearables" }[
      b.motif
    ] ?? "accessories";
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 480" width="1200" height="480" role="img" aria-hidden="true">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>
    <linearGradient id="glass" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1f2937"/><stop offset="1" stop-color="#0b1220"/></linearGradient>
  </defs>
  <rect width="1200" height="480" fill="url(#bg)"/>
  <circle cx="${rtl ? 220 : 980}" cy="240" r="300" fill="#fff" opacity="0.06"/>
  <circle cx="${rtl ? 140 : 1060}" cy="80" r="120" fill="#fff" opacity="0.05"/>
  <g transform="translate(${rtl ? -44 : 700} -40) scale(0.68)">${silhouette(kind, shade(to, 0.35), 1)}</g>
</svg>`;
}

function svgResponse(svg: string): Response {
  return new Response(svg, {
    headers: {
      "content-type": "image/svg+xml; charset=utf-8",
      "cache-control": IMMUTABLE,
      // Even opened directly, the art can run nothing.
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      "x-content-type-options": "nosniff",
    },
  });
}

const artQuery = v.object({
  v: v.optional(v.pipe(v.string(), v.maxLength(16))),
  view: v.optional(v.picklist(["1", "2"], "Must be 1 or 2.")),
  dir: v.optional(v.picklist(["ltr", "rtl"], "Must be ltr or rtl.")),
  /** A variant's colour (six hex digits), drawn instead of the product's. */
  colour: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-fA-F]{6}$/, "Must be six hex digits."))),
});

mediaRoutes.get(
  "/products/:file",
  validate("param", () =>
    v.object({
      file: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,119}\.svg$/, "Must be a product slug followed by .svg.")),
    }),
  ),
  validate("query", () => artQuery),
  async (c) => {
    const slug = c.req.valid("param").file.replace(/\.svg$/, "");
    const facts = await productArtFacts(c.env.DB, slug);
    if (!facts) throw notFound("Product not found");
    const query = c.req.valid("query");
    const drawn = query.colour ? { ...facts, colour: `#${query.colour}` } : facts;
    return svgResponse(productSvg(drawn, query.view === "2" ? 2 : 1));
  },
);

mediaRoutes.get(
  "/banners/:file",
  validate("param", () =>
    v.object({ file: v.pipe(v.string(), v.regex(/^[0-9]{1,9}\.svg$/, "Must be a banner id followed by .svg.")) }),
  ),
  validate("query", () => artQuery),
  async (c) => {
    const facts = await bannerArtFacts(c.env.DB, Number(c.req.valid("param").file.replace(/\.svg$/, "")));
    if (!facts) throw notFound("Banner not found");
    return svgResponse(bannerSvg(facts, c.req.valid("query").dir === "rtl"));
  },
);

/**
 * Images staff uploaded (services/console/media.ts): served with the type recorded at
 * upload (sniffed from the bytes), never sniffed again by the browser. A key names its content
 * (a hash), so a copy may be kept forever.
 */
mediaRoutes.get(
  "/uploads/:key",
  validate("param", () =>
    v.object({
      key: v.pipe(v.string(), v.regex(/^[a-f0-9]{32}\.(jpg|png|webp)$/, "Must be an uploaded image's key.")),
    }),
  ),
  async (c) => {
    const found = await readUpload(c.env.MEDIA, c.req.valid("param").key);
    if (!found) throw notFound("Image not found");
    return imageResponse(found.body, found.type);
  },
);

/**
 * Shoppers' review photos and their thumbnails (services/reviews/photos.ts), each under its own
 * key, served like staff uploads: the sniffed type, nosniff, kept forever (a key names its content).
 */
mediaRoutes.get(
  "/reviews/:key",
  validate("param", () =>
    v.object({ key: v.pipe(v.string(), v.regex(REVIEW_PHOTO_KEY, "Must be a review photo's key.")) }),
  ),
  async (c) => {
    const found = await readReviewPhoto(c.env.MEDIA, c.req.valid("param").key);
    if (!found) throw notFound("Image not found");
    return imageResponse(found.body, found.type);
  },
);

// The demo catalogue's variants (migration 0040): phones, tablets and laptops in their real colours
// and storage sizes, TVs in their screen sizes, each combination with its own SKU, price and stock,
// and a few sold out. A size option named as a typed attribute (storage, screen_size) whose values
// are that attribute's gives the product its values (migration 0041). The
// product's first variant (made with the product) becomes its first combination; the rest are added.
// Every statement is insert-when-missing or keyed on a SKU, so the seed stays safe to re-run.
import { insertOrIgnore, sqlValue } from "./sql.ts";

type Text = { en: string; ar: string };
const t = (en: string, ar: string): Text => ({ en, ar });

/** A colour: its code (the URL's value), names and swatch. */
type Colour = [code: string, name: Text, swatch: string];
/** A size: its code, names and what it adds to the smallest's price, in riyals. */
type Size = [code: string, name: Text, extra: number];

interface SeedVariants {
  /** Empty: the product comes in one colour, and has the size option alone (a TV). */
  colours: Colour[];
  sizes: Size[];
  /** The size option's name: storage for phones and tablets, memory and storage for laptops. */
  sizeName?: Text;
  /** The size option's code (default `storage`): a TV's is `screen_size`, its values inches. */
  sizeCode?: string;
  /** The smallest size's price in riyals (the product's own price is the first combination's). */
  base?: number;
}

const gb = (n: number): Text => t(`${n} GB`, `${n} جيجابايت`);
const tb = (n: number): Text => t(`${n} TB`, `${n} تيرابايت`);
const STORAGE = t("Storage", "السعة");
const inches = (n: number): [code: string, name: Text] => [String(n), t(`${n} inch`, `${n} بوصة`)];
const SCREEN = t("Screen size", "حجم الشاشة");

/** By product slug. Colour names are the makers' own. */
export const VARIANTS: Record<string, SeedVariants> = {
  "iphone-16-pro": {
    colours: [
      ["desert", t("Desert Titanium", "تيتانيوم صحراوي"), "#bfa48f"],
      ["natural", t("Natural Titanium", "تيتانيوم طبيعي"), "#c2bcb2"],
      ["white", t("White Titanium", "تيتانيوم أبيض"), "#f2f1ed"],
      ["black", t("Black Titanium", "تيتانيوم أسود"), "#3c3c3d"],
    ],
    sizes: [
      ["128gb", gb(128), 0],
      ["256gb", gb(256), 500],
      ["512gb", gb(512), 1400],
      ["1tb", tb(1), 2300],
    ],
    base: 4599,
  },
  "iphone-15": {
    colours: [
      ["pink", t("Pink", "وردي"), "#f2c6d0"],
      ["yellow", t("Yellow", "أصفر"), "#f4e8a4"],
      ["green", t("Green", "أخضر"), "#cfdcc4"],
      ["blue", t("Blue", "أزرق"), "#c9d6e0"],
      ["black", t("Black", "أسود"), "#35393b"],
    ],
    sizes: [
      ["128gb", gb(128), 0],
      ["256gb", gb(256), 450],
      ["512gb", gb(512), 1350],
    ],
  },
  "galaxy-s24-ultra": {
    colours: [
      ["titanium-gray", t("Titanium Gray", "رمادي تيتانيوم"), "#8b8c8a"],
      ["titanium-black", t("Titanium Black", "أسود تيتانيوم"), "#2f3032"],
      ["titanium-violet", t("Titanium Violet", "بنفسجي تيتانيوم"), "#5f5870"],
      ["titanium-yellow", t("Titanium Yellow", "أصفر تيتانيوم"), "#efe3b8"],
    ],
    sizes: [
      ["256gb", gb(256), 0],
      ["512gb", gb(512), 500],
      ["1tb", tb(1), 1400],
    ],
    base: 4699,
  },
  "pixel-9-pro": {
    colours: [
      ["obsidian", t("Obsidian", "أسود سبجي"), "#2b2b2d"],
      ["porcelain", t("Porcelain", "أبيض خزفي"), "#ece7de"],
      ["hazel", t("Hazel", "عسلي"), "#8c8f7d"],
      ["rose-quartz", t("Rose Quartz", "وردي كوارتز"), "#f0cfc8"],
    ],
    sizes: [
      ["128gb", gb(128), 0],
      ["256gb", gb(256), 400],
      ["512gb", gb(512), 1200],
    ],
    base: 3899,
  },
  "ipad-air-11-m2": {
    colours: [
      ["space-grey", t("Space Grey", "رمادي فلكي"), "#6e6f73"],
      ["blue", t("Blue", "أزرق"), "#b6c8e0"],
      ["purple", t("Purple", "بنفسجي"), "#d9cfe6"],
      ["starlight", t("Starlight", "ضوء النجوم"), "#ece3d3"],
    ],
    sizes: [
      ["128gb", gb(128), 0],
      ["256gb", gb(256), 450],
      ["512gb", gb(512), 1350],
      ["1tb", tb(1), 2250],
    ],
  },
  "galaxy-tab-s9": {
    colours: [
      ["graphite", t("Graphite", "جرافيت"), "#585c63"],
      ["beige", t("Beige", "بيج"), "#e6dccb"],
    ],
    sizes: [
      ["128gb", gb(128), 0],
      ["256gb", gb(256), 400],
    ],
  },
  "macbook-air-13-m3": {
    colours: [
      ["midnight", t("Midnight", "أزرق ليلي"), "#2e3641"],
      ["starlight", t("Starlight", "ضوء النجوم"), "#e3dccf"],
      ["space-grey", t("Space Grey", "رمادي فلكي"), "#7d7e80"],
      ["silver", t("Silver", "فضي"), "#e3e4e5"],
    ],
    sizes: [
      ["8gb-256gb", t("8 GB · 256 GB", "8 جيجابايت · 256 جيجابايت"), 0],
      ["16gb-512gb", t("16 GB · 512 GB", "16 جيجابايت · 512 جيجابايت"), 1600],
      ["24gb-1tb", t("24 GB · 1 TB", "24 جيجابايت · 1 تيرابايت"), 3200],
    ],
    sizeName: t("Memory and storage", "الذاكرة والتخزين"),
  },
  "lg-oled-c3-65": {
    colours: [],
    sizes: [
      [...inches(55), 0],
      [...inches(65), 2500],
      [...inches(77), 8500],
    ],
    sizeName: SCREEN,
    sizeCode: "screen_size",
    base: 6499,
  },
  "samsung-neo-qled-qn90c-55": {
    colours: [],
    sizes: [
      [...inches(55), 0],
      [...inches(65), 2000],
      [...inches(75), 4500],
    ],
    sizeName: SCREEN,
    sizeCode: "screen_size",
  },
  "sony-bravia-7-65": {
    colours: [],
    sizes: [
      [...inches(55), 0],
      [...inches(65), 1500],
      [...inches(75), 3500],
      [...inches(85), 6500],
    ],
    sizeName: SCREEN,
    sizeCode: "screen_size",
    base: 7999,
  },
};

/** The words of a product's option values for both its index rows, as the worker writes them (attributeWordsStatement). */
export function variantWords(slug: string): string {
  const spec = VARIANTS[slug];
  if (!spec) return "";
  return [...spec.colours.map(([, name]) => name), ...spec.sizes.map(([, name]) => name)]
    .map((name) => `${name.en} ${name.ar}`)
    .join(" ");
}

/**
 * A combination's stock: the product's stock spread over its combinations, with some sold out (a
 * fixed pattern, so the demo is the same on every machine): the dearest size of the second colour
 * and every fifth combination.
 */
function stockOf(total: number, colour: number, size: number, sizes: number, index: number): number {
  if (total === 0) return 0;
  if ((colour === 1 && size === sizes - 1) || index % 5 === 4) return 0;
  return 1 + ((total + colour * 3 + size * 2) % 7);
}

export interface VariantProduct {
  id: number;
  slug: string;
  sku: string;
  price: number;
  stock: number;
  maxPerOrder: number;
}

/** The statements that give the products named in VARIANTS their options and variants. */
export function variantStatements(products: VariantProduct[]): string[] {
  const statements: string[] = [];
  for (const product of products) {
    const spec = VARIANTS[product.slug];
    if (!spec) continue;
    const base = Math.round((spec.base ?? product.price / 100) * 100);
    const sizeCode = spec.sizeCode ?? "storage";
    type Option = [code: string, name: Text, kind: "swatch" | "button", position: number];
    const colourOption: Option = ["colour", t("Colour", "اللون"), "swatch", 0];
    const options: Option[] = [
      ...(spec.colours.length ? [colourOption] : []),
      [sizeCode, spec.sizeName ?? STORAGE, "button", 1],
    ];
    for (const [code, name, kind, position] of options)
      statements.push(
        insertOrIgnore("product_options", {
          product_id: product.id,
          code,
          name_en: name.en,
          name_ar: name.ar,
          kind,
          position,
        }),
      );
    const optionId = (code: string) =>
      `(SELECT id FROM product_options WHERE product_id = ${product.id} AND code = ${sqlValue(code)})`;
    const valueId = (option: string, code: string) =>
      `(SELECT id FROM product_option_values WHERE option_id = ${optionId(option)} AND code = ${sqlValue(code)})`;
    const values = (option: string, list: [string, Text, string | null][]) =>
      list.map(
        ([code, name, swatch], position) =>
          `INSERT OR IGNORE INTO product_option_values (option_id, code, value_en, value_ar, swatch, position)
           VALUES (${optionId(option)}, ${sqlValue(code)}, ${sqlValue(name.en)}, ${sqlValue(name.ar)}, ${sqlValue(swatch)}, ${position})`,
      );
    statements.push(
      ...values(
        "colour",
        spec.colours.map(([code, name, swatch]) => [code, name, swatch]),
      ),
      ...values(
        sizeCode,
        spec.sizes.map(([code, name]) => [code, name, null]),
      ),
    );
    let index = 0;
    // One colour of its own (no colour option) when the product comes in one.
    const colours: (Colour | null)[] = spec.colours.length ? spec.colours : [null];
    colours.forEach((colourSpec, c) =>
      spec.sizes.forEach(([size, , extra], s) => {
        const [colour, , swatch] = colourSpec ?? ["", t("", ""), ""];
        const sku = [product.sku, colour.toUpperCase(), size.toUpperCase()].filter(Boolean).join("-");
        const art = swatch ? `&colour=${swatch.slice(1)}` : "";
        const row = {
          sku,
          price: base + extra * 100,
          stock: stockOf(product.stock, c, s, spec.sizes.length, index),
          images: JSON.stringify([
            `/backend/media/products/${product.slug}.svg?v=1${art}`,
            `/backend/media/products/${product.slug}.svg?v=1&view=2${art}`,
          ]),
          position: index,
        };
        // The product's own first variant becomes the first combination (still under the product's SKU).
        if (index === 0)
          statements.push(
            `UPDATE product_variants SET sku = ${sqlValue(row.sku)}, price = ${row.price}, stock = ${row.stock},
               images = ${sqlValue(row.images)}, position = 0${
                 // A smaller first size keeps the product's discount, not its compare-at price.
                 spec.base
                   ? `, compare_at_price = CAST(ROUND(compare_at_price * ${row.price}.0 / ${product.price} / 100) * 100 AS INTEGER)`
                   : ""
               }
             WHERE product_id = ${product.id} AND sku = ${sqlValue(product.sku)}`,
          );
        else
          // Not INSERT OR IGNORE: a conflict clause carries into the triggers this insert fires,
          // and would turn the product's list copies' INSERT OR REPLACE (migration 0019) into ignores.
          statements.push(
            `INSERT INTO product_variants (product_id, sku, price, stock, max_per_order, images, position)
             SELECT ${product.id}, ${sqlValue(row.sku)}, ${row.price}, ${row.stock}, ${product.maxPerOrder}, ${sqlValue(row.images)}, ${row.position}
             WHERE NOT EXISTS (SELECT 1 FROM product_variants WHERE sku = ${sqlValue(row.sku)})`,
          );
        for (const [option, code] of [...(colourSpec ? [["colour", colour]] : []), [sizeCode, size]])
          statements.push(
            `INSERT OR IGNORE INTO variant_option_values (variant_id, option_id, value_id)
             SELECT id, ${optionId(option)}, ${valueId(option, code)} FROM product_variants WHERE sku = ${sqlValue(sku)}`,
          );
        index++;
      }),
    );
  }
  return statements;
}

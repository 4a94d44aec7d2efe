// A synthetic catalogue for measuring at scale: `count` products in both
// languages over the demo seed's categories and brands plus a long tail of small brands, indexed
// with the same analysis as the demo products (worker/backend/services/catalogue/analysis.ts). The shape is
// a shop's, not a grid's: categories of very different sizes (many cases and cables, few
// consoles), brands by a power law (a few big ones, dozens with a handful of products each),
// prices skewed (log-normal around each category's typical price) and stock uneven (about one in
// ten out of stock, one in five down to its last few). Deterministic: the same count gives the
// same rows, and a larger count only adds rows, so seeding more on top of fewer is safe.
import { indexText } from "../../worker/backend/services/catalogue/analysis.ts";
import { variantAttributeSql } from "../../worker/backend/services/catalogue/variant-attributes.ts";
import { attributeValueRows, attributeWords, CATEGORY_ATTRIBUTES, insertValueRows, type Value } from "./attributes.ts";
import { BRANDS, CATEGORIES, type SeedBrand } from "./catalogue.ts";
import { CATALOGUE_BUMP, insertOrIgnore, sqlValue } from "./sql.ts";

/** Phones, tablets and laptops: every third of them sells four variants (two colours by two sizes). */
const VARIANT_TOPS = new Set(["phones", "tablets", "laptops"]);
const SIZES: [code: string, en: string, ar: string, extra: number][] = [
  ["128gb", "128 GB", "128 جيجابايت", 0],
  ["256gb", "256 GB", "256 جيجابايت", 40_000],
];
const SWATCHES = ["#111111", "#f5f5f5", "#1f4e8c", "#c0c0c0", "#2e7d32"];

/** A synthetic product of several variants, as its flush writes them. */
interface VariantPlan {
  id: number;
  price: number;
  stock: number;
  colours: number[];
}

/** The first synthetic product id: above the demo seed's, so both live in one database. */
export const FIRST_ID = 100_000;
const ROWS_PER_INSERT = 250;
const DETAILS_PER_INSERT = 100;

/** What a product of each leaf category is called, in both languages. */
const KINDS: Record<string, { en: string[]; ar: string[] }> = {
  iphone: { en: ["iPhone"], ar: ["آيفون"] },
  "android-phones": { en: ["Smartphone", "Phone"], ar: ["هاتف ذكي", "جوال"] },
  macbooks: { en: ["MacBook"], ar: ["ماك بوك"] },
  "windows-laptops": { en: ["Laptop", "Notebook"], ar: ["لابتوب", "حاسوب محمول"] },
  tablets: { en: ["Tablet"], ar: ["جهاز لوحي"] },
  tvs: { en: ["Smart TV", "4K TV"], ar: ["تلفزيون ذكي", "شاشة 4K"] },
  headphones: { en: ["Wireless Headphones", "Earbuds"], ar: ["سماعات لاسلكية", "سماعات أذن"] },
  speakers: { en: ["Bluetooth Speaker"], ar: ["مكبر صوت بلوتوث"] },
  cameras: { en: ["Mirrorless Camera", "Camera"], ar: ["كاميرا بدون مرآة", "كاميرا"] },
  consoles: { en: ["Games Console"], ar: ["جهاز ألعاب"] },
  "gaming-accessories": { en: ["Wireless Controller"], ar: ["يد تحكم لاسلكية"] },
  wearables: { en: ["Smart Watch", "Fitness Band"], ar: ["ساعة ذكية", "سوار رياضي"] },
  "smart-home": { en: ["Smart Speaker", "Security Camera"], ar: ["مكبر صوت ذكي", "كاميرا مراقبة"] },
  "chargers-cables": { en: ["Fast Charger", "USB-C Cable"], ar: ["شاحن سريع", "كابل USB-C"] },
  "cases-protection": { en: ["Case", "Screen Protector"], ar: ["جراب", "واقي شاشة"] },
};
/** How many products a leaf category has relative to the others, and its typical price in SAR. */
const SHAPE: Record<string, { weight: number; price: number }> = {
  iphone: { weight: 4, price: 4_500 },
  "android-phones": { weight: 10, price: 1_800 },
  macbooks: { weight: 2, price: 6_500 },
  "windows-laptops": { weight: 7, price: 3_800 },
  tablets: { weight: 4, price: 1_900 },
  tvs: { weight: 5, price: 3_200 },
  headphones: { weight: 9, price: 450 },
  speakers: { weight: 5, price: 600 },
  cameras: { weight: 3, price: 4_200 },
  consoles: { weight: 1, price: 2_200 },
  "gaming-accessories": { weight: 5, price: 280 },
  wearables: { weight: 5, price: 1_100 },
  "smart-home": { weight: 6, price: 350 },
  "chargers-cables": { weight: 16, price: 90 },
  "cases-protection": { weight: 18, price: 70 },
};

/** The long tail: small brands with a few products each, ids above the demo's. */
const TAIL_BRANDS = 60;
const FIRST_TAIL_BRAND = 1_000;
const SYLLABLES = ["ka", "lo", "mi", "ra", "te", "zu", "vo", "ni", "sa", "da", "ri", "no"];
const SYLLABLES_AR = ["كا", "لو", "مي", "را", "تي", "زو", "فو", "ني", "سا", "دا", "ري", "نو"];

export function tailBrands(): SeedBrand[] {
  return Array.from({ length: TAIL_BRANDS }, (_, i) => {
    const a = i % SYLLABLES.length;
    const b = (i * 5 + 3) % SYLLABLES.length;
    const c = Math.floor(i / SYLLABLES.length) % SYLLABLES.length;
    const en = `${SYLLABLES[a]}${SYLLABLES[b]}${SYLLABLES[c]}`;
    return {
      id: FIRST_TAIL_BRAND + i,
      slug: `${en}-${i + 1}`,
      name: {
        en: `${en[0].toUpperCase()}${en.slice(1)} ${i + 1}`,
        ar: `${SYLLABLES_AR[a]}${SYLLABLES_AR[b]}${SYLLABLES_AR[c]} ${i + 1}`,
      },
    };
  });
}

/** A small seeded generator (mulberry32), so the catalogue is the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Picks an index by weight: `cumulative` holds the running sums, `r` is in [0, 1). */
function pick(cumulative: number[], r: number): number {
  const x = r * cumulative[cumulative.length - 1];
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const running = (weights: number[]) =>
  weights.map(
    (
      (sum) => (w: number) =>
        (sum += w)
    )(0),
  );

const SERIES = ["Pro", "Max", "Ultra", "Lite", "Plus", "Air", "Neo", "Prime", "Edge", "Mini"];
const SERIES_AR = ["برو", "ماكس", "ألترا", "لايت", "بلس", "إير", "نيو", "برايم", "إيدج", "ميني"];
const COLOURS = ["Black", "White", "Blue", "Silver", "Green"];
const COLOURS_AR = ["أسود", "أبيض", "أزرق", "فضي", "أخضر"];

/** Each attribute's values by top-level category, the commoner first (picked with a skew towards them). */
export const VALUE_CHOICES: Record<string, Record<string, Value[]>> = {
  phones: {
    screen_size: [6.1, 6.7, 6.5, 6.3, 6.8, 6.6],
    refresh_rate: [120, 90, 60, 144],
    ram: [8, 6, 12, 4, 16],
    storage: ["128gb", "256gb", "64gb", "512gb", "1tb"],
    five_g: [true, false],
  },
  laptops: {
    screen_size: [15.6, 14, 13.3, 16, 13.6, 17.3],
    refresh_rate: [60, 120, 144, 165, 240],
    touch_screen: [false, true],
    ram: [16, 8, 32, 64],
    storage: ["512gb", "1tb", "256gb"],
  },
  tablets: {
    screen_size: [11, 10.9, 8.7, 12.9, 10.1],
    refresh_rate: [60, 120, 90, 144],
    ram: [4, 8, 6, 12],
    storage: ["128gb", "64gb", "256gb", "512gb"],
  },
  tvs: {
    screen_size: [55, 65, 50, 43, 75, 85, 32],
    refresh_rate: [60, 120, 100, 144],
    panel: ["led", "qled", "oled", "qned", "mini-led"],
    os: ["google-tv", "tizen", "webos"],
  },
};

/**
 * A synthetic product's typed values, for the categories that carry attributes: the choices
 * above skewed towards the first, the operating system by brand, a chip named like the series.
 */
function syntheticValues(top: string, apple: boolean, series: string, r: () => number): Record<string, Value> {
  const choices = VALUE_CHOICES[top];
  if (!choices) return {};
  const values: Record<string, Value> = {};
  for (const code of CATEGORY_ATTRIBUTES[top] ?? []) {
    const options = choices[code];
    if (options) values[code] = options[Math.floor(r() ** 1.6 * options.length)];
    else if (code === "chip") values[code] = `${apple ? "Apple" : "Octa-core"} ${series} ${1 + Math.floor(r() * 9)}`;
    else if (code === "os")
      values[code] =
        top === "phones"
          ? apple
            ? "ios"
            : "android"
          : top === "tablets"
            ? apple
              ? "ipados"
              : "android"
            : apple
              ? "macos"
              : "windows";
  }
  return values;
}

/**
 * The rows of the synthetic catalogue, as multi-row INSERT statements (the long-tail brands, then
 * products and their index): products number `from` to `count` − 1, so a database that already
 * holds the first `from` gets only the rest.
 */
export function syntheticStatements(count: number, from = 0): string[] {
  const leaves = CATEGORIES.filter((c) => KINDS[c.slug]);
  const parents = new Map(CATEGORIES.map((c) => [c.slug, c]));
  const leafWeights = running(leaves.map((c) => SHAPE[c.slug]?.weight ?? 1));
  const brands = [...BRANDS, ...tailBrands()];
  // A power law over the brands in their listed order: the first few hold most products.
  const brandWeights = running(brands.map((_, rank) => 1 / (rank + 1) ** 1.1));
  const apple = BRANDS.find((b) => b.slug === "apple") ?? BRANDS[0];
  const statements: string[] = tailBrands().map((b) =>
    insertOrIgnore("brands", { id: b.id, slug: b.slug, name_en: b.name.en, name_ar: b.name.ar }),
  );
  let products: string[] = [];
  let index: string[] = [];
  let detailRows: string[] = [];
  let valueRows: string[] = [];
  let variantPlans: VariantPlan[] = [];
  /**
   * The variant products of a flush: their first variant (made with the product) gives way to four,
   * with options and values under ids of their own (the product's id times two, and so on), so
   * each step is one statement for the flush's products, not one per product.
   */
  const variantStatements = (): string[] => {
    if (!variantPlans.length) return [];
    const options: string[] = [];
    const values: string[] = [];
    const variants: string[] = [];
    const choices: string[] = [];
    for (const plan of variantPlans) {
      const colour = plan.id * 2;
      const size = plan.id * 2 + 1;
      options.push(`(${colour}, ${plan.id}, 'colour', 'Colour', 'اللون', 'swatch', 0)`);
      options.push(`(${size}, ${plan.id}, 'storage', 'Storage', 'السعة', 'button', 1)`);
      plan.colours.forEach((c, at) =>
        values.push(
          `(${colour * 4 + at}, ${colour}, ${sqlValue(COLOURS[c].toLowerCase())}, ${sqlValue(COLOURS[c])}, ${sqlValue(COLOURS_AR[c])}, ${sqlValue(SWATCHES[c])}, ${at})`,
        ),
      );
      SIZES.forEach(([code, en, ar], at) =>
        values.push(`(${size * 4 + at}, ${size}, ${sqlValue(code)}, ${sqlValue(en)}, ${sqlValue(ar)}, NULL, ${at})`),
      );
      plan.colours.forEach((c, ci) =>
        SIZES.forEach(([code, , , extra], si) => {
          const position = ci * SIZES.length + si;
          const sku = `SYN-${plan.id}-${COLOURS[c].toUpperCase()}-${code.toUpperCase()}`;
          // The product's stock spread over its four; one of every five products' dearest is sold out.
          const stock =
            position === 3 && plan.id % 5 === 0 ? 0 : [plan.stock, plan.stock >> 1, 3, plan.stock % 4][position];
          variants.push(`(${plan.id}, ${sqlValue(sku)}, ${plan.price + extra}, ${stock}, 5, ${position})`);
          choices.push(
            `(${sqlValue(sku)}, ${colour}, ${colour * 4 + ci})`,
            `(${sqlValue(sku)}, ${size}, ${size * 4 + si})`,
          );
        }),
      );
    }
    const ids = variantPlans.map((p) => p.id).join(", ");
    variantPlans = [];
    return [
      `DELETE FROM product_variants WHERE product_id IN (${ids})`,
      `INSERT INTO product_options (id, product_id, code, name_en, name_ar, kind, position) VALUES ${options.join(", ")}`,
      `INSERT INTO product_option_values (id, option_id, code, value_en, value_ar, swatch, position) VALUES ${values.join(", ")}`,
      `INSERT INTO product_variants (product_id, sku, price, stock, max_per_order, position) VALUES ${variants.join(", ")}`,
      `INSERT INTO variant_option_values (variant_id, option_id, value_id)
       SELECT v.id, x.column2, x.column3 FROM (VALUES ${choices.join(", ")}) x JOIN product_variants v ON v.sku = x.column1`,
      // Their storage is the variants': both sizes are the product's values.
      ...variantAttributeSql(ids),
    ];
  };
  const flush = () => {
    if (products.length === 0) return;
    statements.push(
      `INSERT OR IGNORE INTO products (id, slug, sku, model, category_id, brand_id, name_en, name_ar, price, compare_at_price, stock, max_per_order, is_featured, is_new, created_at, updated_at) VALUES ${products.join(", ")}`,
      `INSERT INTO product_search (rowid, name, body) VALUES ${index.join(", ")}`,
      // The details rows are the longest (names, descriptions, typed values): a statement stays
      // under D1's 100 KB by taking a hundred of them at most.
      ...Array.from(
        { length: Math.ceil(detailRows.length / DETAILS_PER_INSERT) },
        (_, k) =>
          `INSERT INTO product_details_search (rowid, details) VALUES ${detailRows.slice(k * DETAILS_PER_INSERT, (k + 1) * DETAILS_PER_INSERT).join(", ")}`,
      ),
      ...(valueRows.length ? [insertValueRows(valueRows)] : []),
      ...variantStatements(),
    );
    valueRows = [];
    products = [];
    index = [];
    detailRows = [];
  };
  for (let i = from; i < count; i++) {
    const id = FIRST_ID + i;
    const r = random(id);
    const category = leaves[pick(leafWeights, r())];
    const top = category.parent ? parents.get(category.parent)! : category;
    const brand = category.slug === "iphone" || category.slug === "macbooks" ? apple : brands[pick(brandWeights, r())];
    const kind = KINDS[category.slug];
    const k = i % kind.en.length;
    const s = (i >> 3) % SERIES.length;
    const c = (i >> 5) % COLOURS.length;
    const number = 10 + (i % 90);
    const model = `SX-${id.toString(36).toUpperCase()}`;
    const nameEn = `${brand.name.en} ${kind.en[k]} ${SERIES[s]} ${number} ${COLOURS[c]}`;
    const nameAr = `${kind.ar[k]} ${brand.name.ar} ${SERIES_AR[s]} ${number} ${COLOURS_AR[c]}`;
    // Log-normal around the category's typical price (Box-Muller), ending in .99 SAR.
    const z = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
    const sar = Math.max(19, Math.round((SHAPE[category.slug]?.price ?? 500) * Math.exp(0.6 * z)));
    const price = sar * 100 - 1;
    const roll = r();
    const stock = roll < 0.1 ? 0 : roll < 0.3 ? 1 + Math.floor(r() * 5) : 6 + Math.floor(r() ** 2 * 195);
    const created = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
    products.push(
      `(${[
        id,
        sqlValue(`synthetic-${id}`),
        sqlValue(`SYN-${id}`),
        sqlValue(model),
        category.id,
        brand.id,
        sqlValue(nameEn),
        sqlValue(nameAr),
        price,
        r() < 0.25 ? Math.round(price * 1.15) : "NULL",
        stock,
        5,
        r() < 0.005 ? 1 : 0,
        r() < 0.02 ? 1 : 0,
        sqlValue(created),
        sqlValue(created),
      ].join(", ")})`,
    );
    const categories = top === category ? [category] : [category, top];
    // A description like the demo's: the kind, the colour and what it works with, in both languages.

    const name = indexText([nameEn, nameAr, model].join(" "));
    const values = syntheticValues(top.slug, brand.id === apple.id, SERIES[s], r);
    valueRows.push(...attributeValueRows(id, values));
    const colours = [c, (c + 1) % COLOURS.length];
    const varied = VARIANT_TOPS.has(top.slug) && i % 3 === 0;
    if (varied) variantPlans.push({ id, price, stock, colours });
    const optionWords = varied
      ? [...colours.map((x) => `${COLOURS[x]} ${COLOURS_AR[x]}`), ...SIZES.map(([, en, ar]) => `${en} ${ar}`)].join(" ")
      : "";
    const details = indexText(
      [
        `A ${COLOURS[c].toLowerCase()} ${kind.en[k].toLowerCase()} from ${brand.name.en}, ${SERIES[s]} edition, with a two-year warranty.`,
        `${kind.ar[k]} من ${brand.name.ar} باللون ال${COLOURS_AR[c]}، إصدار ${SERIES_AR[s]}، مع ضمان لمدة سنتين.`,
        ...categories.flatMap((x) => [x.name.en, x.name.ar]),
        attributeWords(values),
        // Its variants' values, as the worker adds them (attributeWordsStatement), in both rows.
        optionWords,
      ].join(" "),
    );
    const body = indexText(
      [
        `SYN-${id}`,
        brand.name.en,
        brand.name.ar,
        ...categories.flatMap((x) => [x.name.en, x.name.ar]),
        optionWords,
      ].join(" "),
    );
    index.push(`(${id}, ${sqlValue(name)}, ${sqlValue(body)})`);
    detailRows.push(`(${id}, ${sqlValue(details)})`);
    if (products.length === ROWS_PER_INSERT) flush();
  }
  flush();
  statements.push(CATALOGUE_BUMP);
  return statements;
}

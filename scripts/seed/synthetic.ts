// A synthetic catalogue for measuring search at scale (issue 19): `count` products in both
// languages over the demo seed's categories and brands, indexed with the same analysis as the
// demo products (worker/backend/services/analysis.ts). Deterministic: the same count gives the
// same rows. Ids start above the demo seed's, so both live in one database.
import { indexText } from "../../worker/backend/services/analysis.ts";
import { BRANDS, CATEGORIES } from "./catalogue.ts";
import { CATALOGUE_BUMP, sqlValue } from "./sql.ts";

const FIRST_ID = 100_000;
const ROWS_PER_INSERT = 250;

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
const SERIES = ["Pro", "Max", "Ultra", "Lite", "Plus", "Air", "Neo", "Prime", "Edge", "Mini"];
const SERIES_AR = ["برو", "ماكس", "ألترا", "لايت", "بلس", "إير", "نيو", "برايم", "إيدج", "ميني"];
const COLOURS = ["Black", "White", "Blue", "Silver", "Green"];
const COLOURS_AR = ["أسود", "أبيض", "أزرق", "فضي", "أخضر"];

/** The rows of the synthetic catalogue, as multi-row INSERT statements (products, then their index). */
export function syntheticStatements(count: number): string[] {
  const leaves = CATEGORIES.filter((c) => KINDS[c.slug]);
  const parents = new Map(CATEGORIES.map((c) => [c.slug, c]));
  const statements: string[] = [];
  let products: string[] = [];
  let index: string[] = [];
  let detailRows: string[] = [];
  const flush = () => {
    if (products.length === 0) return;
    statements.push(
      `INSERT OR IGNORE INTO products (id, slug, sku, model, category_id, brand_id, name_en, name_ar, price, compare_at_price, stock, max_per_order, is_featured, is_new, created_at, updated_at) VALUES ${products.join(", ")}`,
      `INSERT INTO product_search (rowid, name, body) VALUES ${index.join(", ")}`,
      `INSERT INTO product_details_search (rowid, details) VALUES ${detailRows.join(", ")}`,
    );
    products = [];
    index = [];
    detailRows = [];
  };
  for (let i = 0; i < count; i++) {
    const id = FIRST_ID + i;
    const category = leaves[i % leaves.length];
    const top = category.parent ? parents.get(category.parent)! : category;
    const brand = BRANDS[(i * 7) % BRANDS.length];
    const kind = KINDS[category.slug];
    const k = i % kind.en.length;
    const s = (i >> 3) % SERIES.length;
    const c = (i >> 5) % COLOURS.length;
    const number = 10 + (i % 90);
    const model = `SX-${id.toString(36).toUpperCase()}`;
    const nameEn = `${brand.name.en} ${kind.en[k]} ${SERIES[s]} ${number} ${COLOURS[c]}`;
    const nameAr = `${kind.ar[k]} ${brand.name.ar} ${SERIES_AR[s]} ${number} ${COLOURS_AR[c]}`;
    const price = 4_900 + ((i * 7919) % 900_000);
    const stock = i % 9 === 0 ? 0 : (i % 40) + 1;
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
        i % 4 === 0 ? price + 10_000 : "NULL",
        stock,
        5,
        0,
        i % 50 === 0 ? 1 : 0,
        sqlValue(created),
        sqlValue(created),
      ].join(", ")})`,
    );
    const categories = top === category ? [category] : [category, top];
    // A description like the demo's: the kind, the colour and what it works with, in both languages.
    const details = indexText(
      `A ${COLOURS[c].toLowerCase()} ${kind.en[k].toLowerCase()} from ${brand.name.en}, ${SERIES[s]} edition, with a two-year warranty. ` +
        `${kind.ar[k]} من ${brand.name.ar} باللون ال${COLOURS_AR[c]}، إصدار ${SERIES_AR[s]}، مع ضمان لمدة سنتين.`,
    );
    const name = indexText([nameEn, nameAr, model].join(" "));
    const body = indexText(
      [`SYN-${id}`, brand.name.en, brand.name.ar, ...categories.flatMap((x) => [x.name.en, x.name.ar])].join(" "),
    );
    index.push(`(${id}, ${sqlValue(name)}, ${sqlValue(body)})`);
    detailRows.push(`(${id}, ${sqlValue(details)})`);
    if (products.length === ROWS_PER_INSERT) flush();
  }
  flush();
  statements.push(CATALOGUE_BUMP);
  return statements;
}

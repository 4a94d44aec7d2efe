// The demo catalogue's typed specifications (migration 0037): the attributes, the categories that
// carry them, and every product's values. Labels match the free-form
// rows of catalogue.ts where both exist, so a typed value supersedes its row on the product page.
import { insertOrIgnore, sqlValue } from "./sql.ts";
import { VARIANTS } from "./variants.ts";

type Text = { en: string; ar: string };
const t = (en: string, ar: string): Text => ({ en, ar });

const GROUPS = {
  display: t("Display", "الشاشة"),
  performance: t("Performance", "الأداء"),
  memory: t("Memory and storage", "الذاكرة والتخزين"),
  software: t("Software", "البرمجيات"),
  connectivity: t("Connectivity", "الاتصال"),
  battery: t("Battery", "البطارية"),
  sound: t("Sound", "الصوت"),
  build: t("Build", "التصميم"),
  imaging: t("Imaging", "التصوير"),
  compatibility: t("Compatibility", "التوافق"),
  power: t("Power", "الطاقة"),
} satisfies Record<string, Text>;

interface SeedAttribute {
  id: number;
  code: string;
  type: "number" | "enum" | "bool" | "text";
  label: Text;
  unit?: Text;
  group: keyof typeof GROUPS;
  options?: [code: string, label: Text][];
}

export const ATTRIBUTES: SeedAttribute[] = [
  {
    id: 1,
    code: "screen_size",
    type: "number",
    label: t("Screen size", "حجم الشاشة"),
    unit: t("inch", "بوصة"),
    group: "display",
  },
  {
    id: 2,
    code: "refresh_rate",
    type: "number",
    label: t("Refresh rate", "معدل التحديث"),
    unit: t("Hz", "هرتز"),
    group: "display",
  },
  {
    id: 3,
    code: "panel",
    type: "enum",
    label: t("Panel", "نوع اللوحة"),
    group: "display",
    options: [
      ["oled", t("OLED", "OLED")],
      ["mini-led", t("Mini LED", "Mini LED")],
      ["qned", t("QNED", "QNED")],
      ["qled", t("QLED", "QLED")],
      ["led", t("LED", "LED")],
    ],
  },
  { id: 4, code: "touch_screen", type: "bool", label: t("Touch screen", "شاشة لمس"), group: "display" },
  { id: 5, code: "chip", type: "text", label: t("Processor", "المعالج"), group: "performance" },
  {
    id: 6,
    code: "ram",
    type: "number",
    label: t("Memory", "الذاكرة العشوائية"),
    unit: t("GB", "جيجابايت"),
    group: "memory",
  },
  {
    id: 7,
    code: "storage",
    type: "enum",
    label: t("Storage", "السعة التخزينية"),
    group: "memory",
    options: [
      ["64gb", t("64 GB", "64 جيجابايت")],
      ["128gb", t("128 GB", "128 جيجابايت")],
      ["256gb", t("256 GB", "256 جيجابايت")],
      ["512gb", t("512 GB", "512 جيجابايت")],
      ["1tb", t("1 TB", "1 تيرابايت")],
    ],
  },
  {
    id: 8,
    code: "os",
    type: "enum",
    label: t("Operating system", "نظام التشغيل"),
    group: "software",
    options: [
      ["ios", t("iOS", "iOS")],
      ["ipados", t("iPadOS", "iPadOS")],
      ["android", t("Android", "أندرويد")],
      ["harmonyos", t("HarmonyOS", "HarmonyOS")],
      ["macos", t("macOS", "macOS")],
      ["windows", t("Windows", "ويندوز")],
      ["webos", t("webOS", "webOS")],
      ["tizen", t("Tizen", "Tizen")],
      ["google-tv", t("Google TV", "Google TV")],
    ],
  },
  { id: 9, code: "five_g", type: "bool", label: t("5G", "شبكات 5G"), group: "connectivity" },
  {
    id: 10,
    code: "battery_life",
    type: "number",
    label: t("Battery life", "عمر البطارية"),
    unit: t("hours", "ساعة"),
    group: "battery",
  },
  {
    id: 11,
    code: "noise_cancelling",
    type: "bool",
    label: t("Active noise cancelling", "إلغاء الضوضاء النشط"),
    group: "sound",
  },
  {
    id: 12,
    code: "water_resistance",
    type: "enum",
    label: t("Water resistance", "مقاومة الماء"),
    group: "build",
    options: [
      ["none", t("Not rated", "غير مصنّفة")],
      ["ip54", t("IP54", "IP54")],
      ["ip57", t("IP57", "IP57")],
      ["ip67", t("IP67", "IP67")],
      ["5atm", t("5 ATM", "5 ATM")],
      ["10atm", t("10 ATM", "10 ATM")],
    ],
  },
  {
    id: 13,
    code: "sensor",
    type: "enum",
    label: t("Sensor size", "حجم المستشعر"),
    group: "imaging",
    options: [
      ["full-frame", t("Full frame", "إطار كامل")],
      ["aps-c", t("APS-C", "APS-C")],
      ["one-inch", t("1-inch", "1 بوصة")],
    ],
  },
  {
    id: 14,
    code: "megapixels",
    type: "number",
    label: t("Resolution", "الدقة"),
    unit: t("MP", "ميجابكسل"),
    group: "imaging",
  },
  {
    id: 15,
    code: "video",
    type: "enum",
    label: t("Video", "الفيديو"),
    group: "imaging",
    options: [
      ["4k-30", t("4K 30p", "4K 30p")],
      ["4k-60", t("4K 60p", "4K 60p")],
      ["6k-60", t("6K 60p", "6K 60p")],
    ],
  },
  {
    id: 16,
    code: "platform",
    type: "enum",
    label: t("Platform", "المنصة"),
    group: "compatibility",
    options: [
      ["playstation", t("PlayStation", "بلايستيشن")],
      ["xbox", t("Xbox", "إكس بوكس")],
      ["nintendo", t("Nintendo", "نينتندو")],
    ],
  },
  { id: 17, code: "gps", type: "bool", label: t("GPS", "نظام GPS"), group: "connectivity" },
  {
    id: 18,
    code: "network",
    type: "enum",
    label: t("Network", "الشبكة"),
    group: "connectivity",
    options: [
      ["wifi-4", t("Wi-Fi 4", "واي فاي 4")],
      ["wifi-5", t("Wi-Fi 5", "واي فاي 5")],
      ["wifi-6", t("Wi-Fi 6", "واي فاي 6")],
      ["zigbee", t("Zigbee", "زيجبي")],
    ],
  },
  { id: 19, code: "power", type: "number", label: t("Power", "القدرة"), unit: t("W", "واط"), group: "power" },
  {
    id: 20,
    code: "connector",
    type: "enum",
    label: t("Connector", "المنفذ"),
    group: "power",
    options: [
      ["usb-c", t("USB-C", "USB-C")],
      ["lightning", t("Lightning", "Lightning")],
    ],
  },
  { id: 21, code: "fits", type: "text", label: t("Fits", "متوافق مع"), group: "compatibility" },
  { id: 22, code: "magsafe", type: "bool", label: t("MagSafe", "MagSafe"), group: "compatibility" },
];

/**
 * The attributes each category lists, in table order: a top-level category's, which its
 * subcategories inherit, or a subcategory's own (chargers and cases share no attribute).
 */
export const CATEGORY_ATTRIBUTES: Record<string, string[]> = {
  phones: ["screen_size", "refresh_rate", "chip", "ram", "storage", "os", "five_g"],
  laptops: ["screen_size", "refresh_rate", "touch_screen", "chip", "ram", "storage", "os"],
  tablets: ["screen_size", "refresh_rate", "chip", "ram", "storage", "os"],
  tvs: ["screen_size", "refresh_rate", "panel", "os"],
  audio: ["battery_life", "noise_cancelling", "water_resistance"],
  cameras: ["sensor", "megapixels", "video"],
  gaming: ["platform"],
  wearables: ["battery_life", "gps", "water_resistance"],
  "smart-home": ["network"],
  "chargers-cables": ["power", "connector"],
  "cases-protection": ["fits", "magsafe"],
};

export type Value = number | boolean | string;
/** Numbers and yes/no as they are; an enumeration by its option's code; text in both languages as one string. */
// prettier-ignore
export const VALUES: Record<string, Record<string, Value>> = {
    "iphone-16-pro": { screen_size: 6.3, refresh_rate: 120, chip: "A18 Pro", ram: 8, storage: "256gb", os: "ios", five_g: true },
    "iphone-15-pro-max": { screen_size: 6.7, refresh_rate: 120, chip: "A17 Pro", ram: 8, storage: "256gb", os: "ios", five_g: true },
    "iphone-15-pro": { screen_size: 6.1, refresh_rate: 120, chip: "A17 Pro", ram: 8, storage: "128gb", os: "ios", five_g: true },
    "iphone-15": { screen_size: 6.1, refresh_rate: 60, chip: "A16 Bionic", ram: 6, storage: "128gb", os: "ios", five_g: true },
    "iphone-14": { screen_size: 6.1, refresh_rate: 60, chip: "A15 Bionic", ram: 6, storage: "128gb", os: "ios", five_g: true },
    "galaxy-s24-ultra": { screen_size: 6.8, refresh_rate: 120, chip: "Snapdragon 8 Gen 3 for Galaxy", ram: 12, storage: "512gb", os: "android", five_g: true },
    "galaxy-s24": { screen_size: 6.2, refresh_rate: 120, chip: "Exynos 2400", ram: 8, storage: "256gb", os: "android", five_g: true },
    "galaxy-a55": { screen_size: 6.6, refresh_rate: 120, chip: "Exynos 1480", ram: 8, storage: "256gb", os: "android", five_g: true },
    "galaxy-z-fold6": { screen_size: 7.6, refresh_rate: 120, chip: "Snapdragon 8 Gen 3 for Galaxy", ram: 12, storage: "512gb", os: "android", five_g: true },
    "pixel-9-pro": { screen_size: 6.3, refresh_rate: 120, chip: "Google Tensor G4", ram: 16, storage: "256gb", os: "android", five_g: true },
    "xiaomi-14-ultra": { screen_size: 6.73, refresh_rate: 120, chip: "Snapdragon 8 Gen 3", ram: 16, storage: "512gb", os: "android", five_g: true },
    "huawei-pura-70-pro": { screen_size: 6.8, refresh_rate: 120, chip: "Kirin 9010", ram: 12, storage: "512gb", os: "harmonyos", five_g: false },
    "macbook-air-13-m3": { screen_size: 13.6, refresh_rate: 60, touch_screen: false, chip: "Apple M3", ram: 8, storage: "256gb", os: "macos" },
    "macbook-air-15-m3": { screen_size: 15.3, refresh_rate: 60, touch_screen: false, chip: "Apple M3", ram: 16, storage: "512gb", os: "macos" },
    "macbook-pro-14-m3-pro": { screen_size: 14.2, refresh_rate: 120, touch_screen: false, chip: "Apple M3 Pro 11-core", ram: 18, storage: "512gb", os: "macos" },
    "dell-xps-13": { screen_size: 13.4, refresh_rate: 120, touch_screen: false, chip: "Intel Core Ultra 7 155H", ram: 16, storage: "512gb", os: "windows" },
    "hp-spectre-x360-14": { screen_size: 14, refresh_rate: 120, touch_screen: true, chip: "Intel Core Ultra 7 155H", ram: 16, storage: "1tb", os: "windows" },
    "lenovo-thinkpad-x1-carbon": { screen_size: 14, refresh_rate: 60, touch_screen: false, chip: "Intel Core Ultra 7 165U", ram: 32, storage: "1tb", os: "windows" },
    "lenovo-legion-5": { screen_size: 16, refresh_rate: 165, touch_screen: false, chip: "Intel Core i7-14650HX", ram: 16, storage: "1tb", os: "windows" },
    "hp-victus-15": { screen_size: 15.6, refresh_rate: 144, touch_screen: false, chip: "AMD Ryzen 5 7535HS", ram: 8, storage: "512gb", os: "windows" },
    "ipad-pro-11-m4": { screen_size: 11, refresh_rate: 120, chip: "Apple M4", ram: 8, storage: "256gb", os: "ipados" },
    "ipad-air-11-m2": { screen_size: 11, refresh_rate: 60, chip: "Apple M2", ram: 8, storage: "128gb", os: "ipados" },
    "ipad-10th-gen": { screen_size: 10.9, refresh_rate: 60, chip: "A14 Bionic", ram: 4, storage: "64gb", os: "ipados" },
    "galaxy-tab-s9": { screen_size: 11, refresh_rate: 120, chip: "Snapdragon 8 Gen 2 for Galaxy", ram: 8, storage: "128gb", os: "android" },
    "galaxy-tab-a9-plus": { screen_size: 11, refresh_rate: 90, chip: "Snapdragon 695", ram: 4, storage: "64gb", os: "android" },
    "xiaomi-pad-6": { screen_size: 11, refresh_rate: 144, chip: "Snapdragon 870", ram: 8, storage: "256gb", os: "android" },
    "lg-oled-c3-65": { screen_size: 65, refresh_rate: 120, panel: "oled", os: "webos" },
    "samsung-neo-qled-qn90c-55": { screen_size: 55, refresh_rate: 144, panel: "mini-led", os: "tizen" },
    "sony-bravia-7-65": { screen_size: 65, refresh_rate: 120, panel: "mini-led", os: "google-tv" },
    "samsung-crystal-uhd-50": { screen_size: 50, refresh_rate: 60, panel: "led", os: "tizen" },
    "lg-qned81-75": { screen_size: 75, refresh_rate: 60, panel: "qned", os: "webos" },
    "xiaomi-tv-a-pro-43": { screen_size: 43, refresh_rate: 60, panel: "qled", os: "google-tv" },
    "airpods-pro-2": { battery_life: 6, noise_cancelling: true, water_resistance: "ip54" },
    "sony-wh-1000xm5": { battery_life: 30, noise_cancelling: true, water_resistance: "none" },
    "bose-quietcomfort-ultra": { battery_life: 24, noise_cancelling: true, water_resistance: "none" },
    "galaxy-buds3-pro": { battery_life: 6, noise_cancelling: true, water_resistance: "ip57" },
    "jbl-tune-770nc": { battery_life: 70, noise_cancelling: true, water_resistance: "none" },
    "jbl-charge-5": { battery_life: 20, noise_cancelling: false, water_resistance: "ip67" },
    "bose-soundlink-flex": { battery_life: 12, noise_cancelling: false, water_resistance: "ip67" },
    "sony-ult-field-1": { battery_life: 12, noise_cancelling: false, water_resistance: "ip67" },
    "canon-eos-r6-mark-ii": { sensor: "full-frame", megapixels: 24.2, video: "4k-60" },
    "canon-eos-r50-kit": { sensor: "aps-c", megapixels: 24.2, video: "4k-30" },
    "sony-alpha-7-iv": { sensor: "full-frame", megapixels: 33, video: "4k-60" },
    "sony-zv-e10": { sensor: "aps-c", megapixels: 24.2, video: "4k-30" },
    "nikon-z6-iii": { sensor: "full-frame", megapixels: 24.5, video: "6k-60" },
    "sony-rx100-vii": { sensor: "one-inch", megapixels: 20.1, video: "4k-30" },
    "playstation-5-slim": { platform: "playstation" },
    "xbox-series-x": { platform: "xbox" },
    "nintendo-switch-oled": { platform: "nintendo" },
    "playstation-portal": { platform: "playstation" },
    "dualsense-edge": { platform: "playstation" },
    "xbox-wireless-controller": { platform: "xbox" },
    "apple-watch-series-9-45": { battery_life: 18, gps: true, water_resistance: "5atm" },
    "apple-watch-ultra-2": { battery_life: 36, gps: true, water_resistance: "10atm" },
    "galaxy-watch6-classic-47": { battery_life: 40, gps: true, water_resistance: "5atm" },
    "garmin-fenix-7-pro-solar": { battery_life: 528, gps: true, water_resistance: "10atm" },
    "huawei-watch-gt4-46": { battery_life: 336, gps: true, water_resistance: "5atm" },
    "xiaomi-smart-band-8": { battery_life: 384, gps: false, water_resistance: "5atm" },
    "google-nest-hub-2": { network: "wifi-5" },
    "tapo-c210-camera": { network: "wifi-4" },
    "philips-hue-starter-kit-e27": { network: "zigbee" },
    "xiaomi-robot-vacuum-s10-plus": { network: "wifi-4" },
    "homepod-mini": { network: "wifi-4" },
    "deco-x50-mesh-3-pack": { network: "wifi-6" },
    "anker-737-power-bank": { power: 140, connector: "usb-c" },
    "anker-nano-65w-charger": { power: 65, connector: "usb-c" },
    "apple-20w-usb-c-adapter": { power: 20, connector: "usb-c" },
    "samsung-45w-charger": { power: 45, connector: "usb-c" },
    "apple-240w-usb-c-cable-2m": { power: 240, connector: "usb-c" },
    "iphone-15-pro-silicone-case": { fits: "iPhone 15 Pro", magsafe: true },
    "galaxy-s24-ultra-clear-case": { fits: "Galaxy S24 Ultra", magsafe: false },
    "ipad-pro-11-smart-folio": { fits: "iPad Pro 11-inch (M4)", magsafe: false },
};

/**
 * Typed values as a product's search index body holds them (the same words the worker writes:
 * services/catalogue/attributes.ts, `attributeWordsStatement`): numbers with their unit in both
 * languages, options' names, a yes's attribute name, texts.
 */
export function attributeWords(values: Record<string, Value>): string {
  const byCode = new Map(ATTRIBUTES.map((a) => [a.code, a]));
  return Object.entries(values)
    .map(([code, value]) => {
      const a = byCode.get(code)!;
      if (a.type === "number") return [String(value), a.unit?.en ?? "", a.unit?.ar ?? ""].join(" ");
      if (a.type === "enum") {
        const [, label] = a.options!.find(([c]) => c === value)!;
        return `${label.en} ${label.ar}`;
      }
      if (a.type === "bool") return value === true ? `${a.label.en} ${a.label.ar}` : "";
      return `${String(value)} ${String(value)}`;
    })
    .join(" ");
}

/**
 * A product's values less the one its variants give (a phone's storage, a TV's screen size: the
 * worker's `variantAttributeSql` replaces it), as its index rows hold them: the variants' option
 * values are the words of those.
 */
export function ownValues(slug: string): Record<string, Value> {
  const values = { ...(VALUES[slug] ?? {}) };
  const spec = VARIANTS[slug];
  const code = spec?.sizeCode ?? "storage";
  const a = ATTRIBUTES.find((x) => x.code === code);
  const gives =
    spec &&
    a &&
    spec.sizes.some(([size]) =>
      a.type === "enum" ? a.options!.some(([o]) => o === size) : a.type === "number" && /^\d+$/.test(size),
    );
  if (gives) delete values[code];
  return values;
}

/** A product's values as rows of `product_attribute_values` (SQL tuples). */
export function attributeValueRows(productId: number, values: Record<string, Value>): string[] {
  const byCode = new Map(ATTRIBUTES.map((a) => [a.code, a]));
  return Object.entries(values).map(([code, value]) => {
    const a = byCode.get(code);
    if (!a) throw new Error(`no attribute ${code}`);
    return `(${[
      productId,
      a.id,
      a.type === "number" ? Number(value) : null,
      a.type === "enum" ? optionId(a, String(value)) : null,
      a.type === "bool" ? Boolean(value) : null,
      a.type === "text" ? String(value) : null,
      a.type === "text" ? String(value) : null,
    ]
      .map(sqlValue)
      .join(", ")})`;
  });
}

/** The insert of value rows (attributeValueRows), left alone where a product already has a value. */
export const insertValueRows = (rows: string[]) =>
  `INSERT OR IGNORE INTO product_attribute_values (product_id, attribute_id, number_value, option_id, bool_value, text_en, text_ar) VALUES ${rows.join(", ")}`;

/** The option ids: an attribute's options numbered attribute id × 100 + position, stable across runs. */
const optionId = (attribute: SeedAttribute, code: string): number => {
  const at = attribute.options?.findIndex(([c]) => c === code) ?? -1;
  if (at < 0) throw new Error(`${attribute.code} has no option ${code}`);
  return attribute.id * 100 + at + 1;
};

/**
 * The statements: attributes and options, each top-level category's list, then the values of the
 * products named in VALUES (by slug; ids from the catalogue's own numbering).
 */
export function attributeStatements(categoryIds: Map<string, number>, productIds: Map<string, number>): string[] {
  const statements: string[] = [];
  const byCode = new Map(ATTRIBUTES.map((a) => [a.code, a]));
  ATTRIBUTES.forEach((a, position) => {
    statements.push(
      insertOrIgnore("attributes", {
        id: a.id,
        code: a.code,
        type: a.type,
        label_en: a.label.en,
        label_ar: a.label.ar,
        unit_en: a.unit?.en ?? null,
        unit_ar: a.unit?.ar ?? null,
        group_en: GROUPS[a.group].en,
        group_ar: GROUPS[a.group].ar,
        position,
      }),
    );
    a.options?.forEach(([code, label], i) =>
      statements.push(
        insertOrIgnore("attribute_options", {
          id: optionId(a, code),
          attribute_id: a.id,
          code,
          label_en: label.en,
          label_ar: label.ar,
          position: i,
        }),
      ),
    );
  });
  for (const [category, codes] of Object.entries(CATEGORY_ATTRIBUTES)) {
    const categoryId = categoryIds.get(category);
    if (categoryId === undefined) throw new Error(`no category ${category}`);
    codes.forEach((code, position) =>
      statements.push(
        insertOrIgnore("category_attributes", {
          category_id: categoryId,
          attribute_id: byCode.get(code)!.id,
          position,
        }),
      ),
    );
  }
  // One statement per product, a row per value.
  for (const [slug, values] of Object.entries(VALUES)) {
    const productId = productIds.get(slug);
    if (productId === undefined) throw new Error(`no product ${slug}`);
    statements.push(insertValueRows(attributeValueRows(productId, values)));
  }
  return statements;
}

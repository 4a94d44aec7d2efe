// The demo catalogue: a believable bilingual electronics range (categories with subcategories,
// brands, products with specifications, SAR prices in halalas, stock levels). Pure data and SQL
// builders with no Node imports, so the Workers test runtime can run the same seed.
import { indexText } from "../../worker/backend/services/catalogue/analysis.ts";
import { attributeWords, ownValues } from "./attributes.ts";
import { insertOrIgnore, sqlValue } from "./sql.ts";
import { variantWords } from "./variants.ts";

type Text = { en: string; ar: string };

export interface SeedCategory {
  id: number;
  slug: string;
  parent: string | null;
  name: Text;
  icon: string;
}

export interface SeedBrand {
  id: number;
  slug: string;
  name: Text;
}

export const CATEGORIES: SeedCategory[] = [
  { id: 1, slug: "phones", parent: null, name: { en: "Phones", ar: "الهواتف" }, icon: "phone" },
  { id: 2, slug: "laptops", parent: null, name: { en: "Laptops", ar: "أجهزة اللابتوب" }, icon: "laptop" },
  { id: 3, slug: "tablets", parent: null, name: { en: "Tablets", ar: "الأجهزة اللوحية" }, icon: "tablet" },
  { id: 4, slug: "tvs", parent: null, name: { en: "TVs", ar: "التلفزيونات" }, icon: "tv" },
  { id: 5, slug: "audio", parent: null, name: { en: "Audio", ar: "الصوتيات" }, icon: "headphones" },
  { id: 6, slug: "cameras", parent: null, name: { en: "Cameras", ar: "الكاميرات" }, icon: "camera" },
  { id: 7, slug: "gaming", parent: null, name: { en: "Gaming", ar: "الألعاب" }, icon: "gamepad" },
  { id: 8, slug: "wearables", parent: null, name: { en: "Wearables", ar: "الأجهزة القابلة للارتداء" }, icon: "watch" },
  { id: 9, slug: "smart-home", parent: null, name: { en: "Smart Home", ar: "المنزل الذكي" }, icon: "home" },
  { id: 10, slug: "accessories", parent: null, name: { en: "Accessories", ar: "الإكسسوارات" }, icon: "plug" },
  { id: 11, slug: "iphone", parent: "phones", name: { en: "iPhone", ar: "آيفون" }, icon: "phone" },
  {
    id: 12,
    slug: "android-phones",
    parent: "phones",
    name: { en: "Android Phones", ar: "هواتف أندرويد" },
    icon: "phone",
  },
  { id: 13, slug: "macbooks", parent: "laptops", name: { en: "MacBook", ar: "ماك بوك" }, icon: "laptop" },
  {
    id: 14,
    slug: "windows-laptops",
    parent: "laptops",
    name: { en: "Windows Laptops", ar: "لابتوبات ويندوز" },
    icon: "laptop",
  },
  {
    id: 15,
    slug: "headphones",
    parent: "audio",
    name: { en: "Headphones & Earbuds", ar: "السماعات" },
    icon: "headphones",
  },
  { id: 16, slug: "speakers", parent: "audio", name: { en: "Speakers", ar: "مكبرات الصوت" }, icon: "speaker" },
  { id: 17, slug: "consoles", parent: "gaming", name: { en: "Consoles", ar: "أجهزة الألعاب" }, icon: "gamepad" },
  {
    id: 18,
    slug: "gaming-accessories",
    parent: "gaming",
    name: { en: "Controllers & Accessories", ar: "أذرع التحكم وملحقات الألعاب" },
    icon: "gamepad",
  },
  {
    id: 19,
    slug: "chargers-cables",
    parent: "accessories",
    name: { en: "Chargers & Cables", ar: "الشواحن والكابلات" },
    icon: "plug",
  },
  {
    id: 20,
    slug: "cases-protection",
    parent: "accessories",
    name: { en: "Cases & Protection", ar: "الأغطية والحماية" },
    icon: "shield",
  },
];

export const BRANDS: SeedBrand[] = [
  { id: 1, slug: "apple", name: { en: "Apple", ar: "أبل" } },
  { id: 2, slug: "samsung", name: { en: "Samsung", ar: "سامسونج" } },
  { id: 3, slug: "google", name: { en: "Google", ar: "جوجل" } },
  { id: 4, slug: "xiaomi", name: { en: "Xiaomi", ar: "شاومي" } },
  { id: 5, slug: "huawei", name: { en: "HUAWEI", ar: "هواوي" } },
  { id: 6, slug: "dell", name: { en: "Dell", ar: "ديل" } },
  { id: 7, slug: "hp", name: { en: "HP", ar: "إتش بي" } },
  { id: 8, slug: "lenovo", name: { en: "Lenovo", ar: "لينوفو" } },
  { id: 9, slug: "lg", name: { en: "LG", ar: "إل جي" } },
  { id: 10, slug: "sony", name: { en: "Sony", ar: "سوني" } },
  { id: 11, slug: "bose", name: { en: "Bose", ar: "بوز" } },
  { id: 12, slug: "jbl", name: { en: "JBL", ar: "جي بي إل" } },
  { id: 13, slug: "canon", name: { en: "Canon", ar: "كانون" } },
  { id: 14, slug: "nikon", name: { en: "Nikon", ar: "نيكون" } },
  { id: 15, slug: "microsoft", name: { en: "Microsoft", ar: "مايكروسوفت" } },
  { id: 16, slug: "nintendo", name: { en: "Nintendo", ar: "نينتندو" } },
  { id: 17, slug: "garmin", name: { en: "Garmin", ar: "جارمن" } },
  { id: 18, slug: "tp-link", name: { en: "TP-Link", ar: "تي بي لينك" } },
  { id: 19, slug: "philips", name: { en: "Philips", ar: "فيليبس" } },
  { id: 20, slug: "anker", name: { en: "Anker", ar: "أنكر" } },
];

/** Specification labels in both languages. */
const LABELS = {
  display: { en: "Display", ar: "الشاشة" },
  chip: { en: "Processor", ar: "المعالج" },
  ram: { en: "Memory", ar: "الذاكرة العشوائية" },
  storage: { en: "Storage", ar: "السعة التخزينية" },
  camera: { en: "Camera", ar: "الكاميرا" },
  battery: { en: "Battery", ar: "البطارية" },
  os: { en: "Operating system", ar: "نظام التشغيل" },
  connectivity: { en: "Connectivity", ar: "الاتصال" },
  weight: { en: "Weight", ar: "الوزن" },
  size: { en: "Screen size", ar: "حجم الشاشة" },
  panel: { en: "Panel", ar: "نوع اللوحة" },
  refresh: { en: "Refresh rate", ar: "معدل التحديث" },
  sound: { en: "Sound", ar: "الصوت" },
  anc: { en: "Noise cancelling", ar: "إلغاء الضوضاء" },
  playtime: { en: "Battery life", ar: "عمر البطارية" },
  sensor: { en: "Sensor", ar: "المستشعر" },
  video: { en: "Video", ar: "الفيديو" },
  lens: { en: "Lens", ar: "العدسة" },
  power: { en: "Power", ar: "القدرة" },
  ports: { en: "Ports", ar: "المنافذ" },
  compat: { en: "Compatibility", ar: "التوافق" },
  water: { en: "Water resistance", ar: "مقاومة الماء" },
  graphics: { en: "Graphics", ar: "معالج الرسومات" },
  capacity: { en: "Capacity", ar: "السعة" },
  material: { en: "Material", ar: "الخامة" },
  coverage: { en: "Coverage", ar: "التغطية" },
  warranty: { en: "Warranty", ar: "الضمان" },
} satisfies Record<string, Text>;

type Label = keyof typeof LABELS;
/** A specification: a label and either one value for both languages or [English, Arabic]. */
type Spec = [Label, string | [string, string]];

/** What each category adds to a product's description, after the product's own highlight. */
const CATEGORY_COPY: Record<string, Text> = {
  phones: {
    en: "Comes sealed with a Saudi warranty, activates on all local networks and ships with free next-day delivery in major cities.",
    ar: "يصلك مختومًا بضمان الوكيل في السعودية، ويعمل على جميع الشبكات المحلية، مع توصيل مجاني في اليوم التالي داخل المدن الرئيسية.",
  },
  laptops: {
    en: "Arabic and English keyboard layout, genuine licensed software and free setup in any of our branches.",
    ar: "لوحة مفاتيح بالعربية والإنجليزية، وبرامج أصلية مرخصة، وإعداد مجاني في أي من فروعنا.",
  },
  tablets: {
    en: "A bright, portable screen for study, work and entertainment, with all-day battery life.",
    ar: "شاشة ساطعة ومحمولة للدراسة والعمل والترفيه، مع بطارية تدوم طوال اليوم.",
  },
  tvs: {
    en: "Free delivery and professional wall mounting in Riyadh, Jeddah and Dammam; Arabic interface and local apps included.",
    ar: "توصيل مجاني وتركيب احترافي على الجدار في الرياض وجدة والدمام، مع واجهة عربية وتطبيقات محلية.",
  },
  audio: {
    en: "Tuned for clear voices and deep bass, with Bluetooth pairing that takes seconds.",
    ar: "صوت نقي وجهير عميق، مع اقتران بالبلوتوث خلال ثوانٍ.",
  },
  cameras: {
    en: "Includes a battery, charger and strap; our specialists can help you choose lenses and memory cards.",
    ar: "يشمل البطارية والشاحن والحزام، ويساعدك مختصونا في اختيار العدسات وبطاقات الذاكرة.",
  },
  gaming: {
    en: "Saudi region version with Arabic menus; online play needs a separate subscription.",
    ar: "نسخة المنطقة السعودية بقوائم عربية، واللعب عبر الإنترنت يتطلب اشتراكًا منفصلًا.",
  },
  wearables: {
    en: "Tracks activity, sleep and heart rate, and shows notifications from your phone at a glance.",
    ar: "يتابع نشاطك ونومك ونبض قلبك، ويعرض إشعارات هاتفك بنظرة سريعة.",
  },
  "smart-home": {
    en: "Works with the shop's free installation service; set up in minutes from your phone.",
    ar: "متوافق مع خدمة التركيب المجانية من المتجر، ويُعد خلال دقائق من هاتفك.",
  },
  accessories: {
    en: "Certified for safe charging and built to last daily use.",
    ar: "معتمد للشحن الآمن ومصنوع ليتحمل الاستخدام اليومي.",
  },
};

interface ProductInput {
  slug: string;
  category: string;
  brand: string;
  model: string;
  name: Text;
  /** Whole riyals; stored as halalas. */
  price: number;
  compareAt?: number;
  stock: number;
  maxPerOrder?: number;
  featured?: boolean;
  isNew?: boolean;
  colour: string;
  highlight: Text;
  specs: Spec[];
}

const t = (en: string, ar: string): Text => ({ en, ar });

// prettier-ignore
const PRODUCTS: ProductInput[] = [
  // iPhone
  { slug: "iphone-16-pro", category: "iphone", brand: "apple", model: "A3293", name: t("iPhone 16 Pro", "آيفون 16 برو"), price: 5099, stock: 12, featured: true, isNew: true, colour: "#8a7f72",
    highlight: t("A larger 6.3-inch display, the A18 Pro chip and a new Camera Control button.", "شاشة أكبر مقاس 6.3 بوصة وشريحة A18 Pro وزر جديد للتحكم في الكاميرا."),
    specs: [["display", ["6.3-inch Super Retina XDR", "Super Retina XDR مقاس 6.3 بوصة"]], ["chip", "A18 Pro"], ["storage", ["256 GB", "256 جيجابايت"]], ["camera", ["48 MP Fusion + 48 MP ultra wide + 12 MP 5x telephoto", "48 ميجابكسل رئيسية + 48 ميجابكسل واسعة + 12 ميجابكسل تقريب 5x"]], ["os", "iOS 18"]] },
  { slug: "iphone-15-pro-max", category: "iphone", brand: "apple", model: "A3106", name: t("iPhone 15 Pro Max 256GB", "آيفون 15 برو ماكس 256 جيجابايت"), price: 5399, compareAt: 5799, stock: 8, featured: true, colour: "#5b5a55",
    highlight: t("Titanium design, the A17 Pro chip and a 5x telephoto camera.", "تصميم من التيتانيوم مع شريحة A17 Pro وكاميرا تقريب بصري 5x."),
    specs: [["display", ["6.7-inch Super Retina XDR", "Super Retina XDR مقاس 6.7 بوصة"]], ["chip", "A17 Pro"], ["storage", ["256 GB", "256 جيجابايت"]], ["camera", ["48 MP main, 5x telephoto", "48 ميجابكسل رئيسية وتقريب 5x"]], ["battery", ["Up to 29 hours video", "حتى 29 ساعة تشغيل فيديو"]]] },
  { slug: "iphone-15-pro", category: "iphone", brand: "apple", model: "A3102", name: t("iPhone 15 Pro 128GB", "آيفون 15 برو 128 جيجابايت"), price: 4599, compareAt: 4999, stock: 3, featured: true, colour: "#3b3b3f",
    highlight: t("Pro performance in a light titanium body with the customizable Action button.", "أداء احترافي في هيكل خفيف من التيتانيوم مع زر الإجراءات القابل للتخصيص."),
    specs: [["display", ["6.1-inch Super Retina XDR", "Super Retina XDR مقاس 6.1 بوصة"]], ["chip", "A17 Pro"], ["storage", ["128 GB", "128 جيجابايت"]], ["camera", ["48 MP main, 3x telephoto", "48 ميجابكسل رئيسية وتقريب 3x"]], ["connectivity", "5G, Wi-Fi 6E, USB-C"]] },
  { slug: "iphone-15", category: "iphone", brand: "apple", model: "A3090", name: t("iPhone 15", "آيفون 15"), price: 3699, stock: 25, colour: "#f2c6d0",
    highlight: t("Dynamic Island, a 48 MP main camera and USB-C charging.", "الجزيرة التفاعلية وكاميرا رئيسية بدقة 48 ميجابكسل وشحن عبر USB-C."),
    specs: [["display", ["6.1-inch Super Retina XDR", "Super Retina XDR مقاس 6.1 بوصة"]], ["chip", "A16 Bionic"], ["storage", ["128 GB", "128 جيجابايت"]], ["camera", ["48 MP main + 12 MP ultra wide", "48 ميجابكسل رئيسية + 12 ميجابكسل واسعة"]]] },
  { slug: "iphone-14", category: "iphone", brand: "apple", model: "A2882", name: t("iPhone 14 128GB", "آيفون 14 128 جيجابايت"), price: 2999, compareAt: 3399, stock: 0, colour: "#a7c4dd",
    highlight: t("Crash Detection, an all-day battery and a dual-camera system.", "ميزة اكتشاف الحوادث وبطارية تدوم طوال اليوم ونظام كاميرا مزدوج."),
    specs: [["display", ["6.1-inch Super Retina XDR", "Super Retina XDR مقاس 6.1 بوصة"]], ["chip", "A15 Bionic"], ["storage", ["128 GB", "128 جيجابايت"]], ["camera", ["12 MP dual camera", "كاميرا مزدوجة 12 ميجابكسل"]]] },
  // Android phones
  { slug: "galaxy-s24-ultra", category: "android-phones", brand: "samsung", model: "SM-S928B", name: t("Galaxy S24 Ultra", "جالاكسي S24 ألترا"), price: 5199, compareAt: 5699, stock: 10, featured: true, colour: "#4a4f57",
    highlight: t("Galaxy AI, a built-in S Pen and a 200 MP camera in a titanium frame.", "ذكاء جالاكسي الاصطناعي وقلم S Pen مدمج وكاميرا 200 ميجابكسل في إطار من التيتانيوم."),
    specs: [["display", ["6.8-inch QHD+ Dynamic AMOLED 2X, 120 Hz", "Dynamic AMOLED 2X مقاس 6.8 بوصة بدقة QHD+ و120 هرتز"]], ["chip", "Snapdragon 8 Gen 3 for Galaxy"], ["ram", ["12 GB", "12 جيجابايت"]], ["storage", ["512 GB", "512 جيجابايت"]], ["camera", ["200 MP + 50 MP 5x + 12 MP + 10 MP 3x", "200 ميجابكسل + 50 ميجابكسل تقريب 5x + 12 + 10 ميجابكسل"]], ["battery", ["5,000 mAh, 45 W", "5,000 مللي أمبير، شحن 45 واط"]]] },
  { slug: "galaxy-s24", category: "android-phones", brand: "samsung", model: "SM-S921B", name: t("Galaxy S24 256GB", "جالاكسي S24 256 جيجابايت"), price: 3299, compareAt: 3599, stock: 18, colour: "#c9b8e8",
    highlight: t("A compact flagship with Galaxy AI live translation for calls in Arabic and English.", "هاتف رائد بحجم مريح مع الترجمة الفورية للمكالمات بالعربية والإنجليزية."),
    specs: [["display", ["6.2-inch FHD+ Dynamic AMOLED 2X, 120 Hz", "Dynamic AMOLED 2X مقاس 6.2 بوصة و120 هرتز"]], ["chip", "Exynos 2400"], ["ram", ["8 GB", "8 جيجابايت"]], ["storage", ["256 GB", "256 جيجابايت"]], ["battery", ["4,000 mAh", "4,000 مللي أمبير"]]] },
  { slug: "galaxy-a55", category: "android-phones", brand: "samsung", model: "SM-A556E", name: t("Galaxy A55 5G 256GB", "جالاكسي A55 5G بسعة 256 جيجابايت"), price: 1699, stock: 40, colour: "#9fd3e6",
    highlight: t("A metal frame, a 50 MP camera with OIS and four years of OS updates.", "إطار معدني وكاميرا 50 ميجابكسل بمثبت بصري وأربع سنوات من تحديثات النظام."),
    specs: [["display", ["6.6-inch Super AMOLED, 120 Hz", "Super AMOLED مقاس 6.6 بوصة و120 هرتز"]], ["chip", "Exynos 1480"], ["ram", ["8 GB", "8 جيجابايت"]], ["storage", ["256 GB", "256 جيجابايت"]], ["water", "IP67"]] },
  { slug: "galaxy-z-fold6", category: "android-phones", brand: "samsung", model: "SM-F956B", name: t("Galaxy Z Fold6 512GB", "جالاكسي زد فولد 6 بسعة 512 جيجابايت"), price: 7499, stock: 2, maxPerOrder: 1, isNew: true, colour: "#2f3d4f",
    highlight: t("A tablet-sized 7.6-inch screen that folds into your pocket.", "شاشة بحجم جهاز لوحي مقاس 7.6 بوصة تنطوي لتناسب جيبك."),
    specs: [["display", ["7.6-inch main + 6.3-inch cover", "رئيسية 7.6 بوصة + خارجية 6.3 بوصة"]], ["chip", "Snapdragon 8 Gen 3 for Galaxy"], ["ram", ["12 GB", "12 جيجابايت"]], ["storage", ["512 GB", "512 جيجابايت"]], ["weight", ["239 g", "239 جرامًا"]]] },
  { slug: "pixel-9-pro", category: "android-phones", brand: "google", model: "GEC77", name: t("Pixel 9 Pro", "بكسل 9 برو"), price: 4299, stock: 6, isNew: true, colour: "#d9d4c7",
    highlight: t("Google's best camera and Gemini built in, with seven years of updates.", "أفضل كاميرا من جوجل مع Gemini مدمج وسبع سنوات من التحديثات."),
    specs: [["display", ["6.3-inch Super Actua, 120 Hz", "Super Actua مقاس 6.3 بوصة و120 هرتز"]], ["chip", "Google Tensor G4"], ["ram", ["16 GB", "16 جيجابايت"]], ["storage", ["256 GB", "256 جيجابايت"]], ["camera", ["50 MP + 48 MP ultra wide + 48 MP 5x", "50 ميجابكسل + 48 واسعة + 48 تقريب 5x"]]] },
  { slug: "xiaomi-14-ultra", category: "android-phones", brand: "xiaomi", model: "24030PN60G", name: t("Xiaomi 14 Ultra 512GB", "شاومي 14 ألترا 512 جيجابايت"), price: 4699, compareAt: 4999, stock: 0, colour: "#1f1f22",
    highlight: t("Leica optics with a one-inch main sensor for true photography.", "عدسات لايكا مع مستشعر رئيسي بحجم بوصة واحدة لتصوير احترافي."),
    specs: [["display", ["6.73-inch AMOLED, 120 Hz", "AMOLED مقاس 6.73 بوصة و120 هرتز"]], ["chip", "Snapdragon 8 Gen 3"], ["ram", ["16 GB", "16 جيجابايت"]], ["storage", ["512 GB", "512 جيجابايت"]], ["camera", ["Four 50 MP Leica cameras", "أربع كاميرات لايكا بدقة 50 ميجابكسل"]]] },
  { slug: "huawei-pura-70-pro", category: "android-phones", brand: "huawei", model: "HBN-LX9", name: t("HUAWEI Pura 70 Pro 512GB", "هواوي بيورا 70 برو 512 جيجابايت"), price: 3999, stock: 9, colour: "#f0e6d6",
    highlight: t("An ultra-fast snapshot camera and 100 W HUAWEI SuperCharge.", "كاميرا فائقة السرعة في الالتقاط وشحن هواوي الفائق بقدرة 100 واط."),
    specs: [["display", ["6.8-inch LTPO OLED", "LTPO OLED مقاس 6.8 بوصة"]], ["ram", ["12 GB", "12 جيجابايت"]], ["storage", ["512 GB", "512 جيجابايت"]], ["battery", ["5,050 mAh, 100 W", "5,050 مللي أمبير، 100 واط"]]] },
  // MacBook
  { slug: "macbook-air-13-m3", category: "macbooks", brand: "apple", model: "MRXN3", name: t("MacBook Air 13-inch M3", "ماك بوك إير 13 بوصة M3"), price: 4999, compareAt: 5299, stock: 15, featured: true, colour: "#2e3641",
    highlight: t("Silent, fanless and light, with up to 18 hours of battery life.", "هادئ بلا مراوح وخفيف الوزن، مع بطارية تدوم حتى 18 ساعة."),
    specs: [["display", ["13.6-inch Liquid Retina", "Liquid Retina مقاس 13.6 بوصة"]], ["chip", "Apple M3"], ["ram", ["8 GB", "8 جيجابايت"]], ["storage", ["256 GB SSD", "SSD بسعة 256 جيجابايت"]], ["weight", ["1.24 kg", "1.24 كجم"]]] },
  { slug: "macbook-air-15-m3", category: "macbooks", brand: "apple", model: "MRYM3", name: t("MacBook Air 15-inch M3 16GB/512GB", "ماك بوك إير 15 بوصة M3 بذاكرة 16 وسعة 512 جيجابايت"), price: 6799, stock: 7, colour: "#c7ccd1",
    highlight: t("A big, bright display in a laptop thinner than a pencil.", "شاشة كبيرة وساطعة في جهاز أنحف من القلم."),
    specs: [["display", ["15.3-inch Liquid Retina", "Liquid Retina مقاس 15.3 بوصة"]], ["chip", "Apple M3"], ["ram", ["16 GB", "16 جيجابايت"]], ["storage", ["512 GB SSD", "SSD بسعة 512 جيجابايت"]], ["battery", ["Up to 18 hours", "حتى 18 ساعة"]]] },
  { slug: "macbook-pro-14-m3-pro", category: "macbooks", brand: "apple", model: "MRX33", name: t("MacBook Pro 14-inch M3 Pro 18GB/512GB", "ماك بوك برو 14 بوصة M3 Pro بذاكرة 18 جيجابايت"), price: 8999, stock: 4, featured: true, colour: "#1d1d1f",
    highlight: t("Pro power for code, video and music, with a Liquid Retina XDR display.", "قوة احترافية للبرمجة والفيديو والموسيقى، مع شاشة Liquid Retina XDR."),
    specs: [["display", ["14.2-inch Liquid Retina XDR", "Liquid Retina XDR مقاس 14.2 بوصة"]], ["chip", "Apple M3 Pro 11-core"], ["ram", ["18 GB", "18 جيجابايت"]], ["storage", ["512 GB SSD", "SSD بسعة 512 جيجابايت"]], ["ports", "3× Thunderbolt 4, HDMI, SDXC, MagSafe 3"]] },
  // Windows laptops
  { slug: "dell-xps-13", category: "windows-laptops", brand: "dell", model: "XPS 9340", name: t("Dell XPS 13 Core Ultra 7 16GB/512GB", "ديل XPS 13 بمعالج Core Ultra 7"), price: 6499, compareAt: 6999, stock: 5, colour: "#b9bcc2",
    highlight: t("A seamless glass touchpad and an edge-to-edge keyboard in a 1.2 kg body.", "لوحة لمس زجاجية سلسة ولوحة مفاتيح ممتدة في هيكل يزن 1.2 كجم."),
    specs: [["display", ["13.4-inch FHD+, 120 Hz", "FHD+ مقاس 13.4 بوصة و120 هرتز"]], ["chip", "Intel Core Ultra 7 155H"], ["ram", ["16 GB LPDDR5x", "16 جيجابايت LPDDR5x"]], ["storage", ["512 GB SSD", "SSD بسعة 512 جيجابايت"]], ["os", "Windows 11 Home"]] },
  { slug: "hp-spectre-x360-14", category: "windows-laptops", brand: "hp", model: "14-eu0000", name: t("HP Spectre x360 14 2-in-1", "إتش بي سبكتر x360 14 بتصميم 2 في 1"), price: 6299, stock: 3, colour: "#2b3a4a",
    highlight: t("A 2.8K OLED touch screen that folds into a tablet, with a pen in the box.", "شاشة OLED لمسية بدقة 2.8K تتحول إلى جهاز لوحي، مع قلم في العلبة."),
    specs: [["display", ["14-inch 2.8K OLED touch", "OLED لمسية مقاس 14 بوصة بدقة 2.8K"]], ["chip", "Intel Core Ultra 7 155H"], ["ram", ["16 GB", "16 جيجابايت"]], ["storage", ["1 TB SSD", "SSD بسعة 1 تيرابايت"]]] },
  { slug: "lenovo-thinkpad-x1-carbon", category: "windows-laptops", brand: "lenovo", model: "21KC", name: t("Lenovo ThinkPad X1 Carbon Gen 12", "لينوفو ثينك باد X1 كاربون الجيل 12"), price: 7899, stock: 6, colour: "#1b1b1b",
    highlight: t("The business classic: carbon fibre, a legendary keyboard and enterprise security.", "الخيار الكلاسيكي للأعمال: ألياف الكربون ولوحة مفاتيح أسطورية وأمان مؤسسي."),
    specs: [["display", ["14-inch 2.8K OLED", "OLED مقاس 14 بوصة بدقة 2.8K"]], ["chip", "Intel Core Ultra 7 165U"], ["ram", ["32 GB", "32 جيجابايت"]], ["storage", ["1 TB SSD", "SSD بسعة 1 تيرابايت"]], ["weight", ["1.09 kg", "1.09 كجم"]]] },
  { slug: "lenovo-legion-5", category: "windows-laptops", brand: "lenovo", model: "83DG", name: t("Lenovo Legion 5 RTX 4060 Gaming Laptop", "لابتوب الألعاب لينوفو ليجن 5 مع RTX 4060"), price: 5799, compareAt: 6299, stock: 0, colour: "#343a46",
    highlight: t("A 165 Hz display and RTX 4060 graphics for smooth gaming at high settings.", "شاشة 165 هرتز ورسوميات RTX 4060 لألعاب سلسة بإعدادات عالية."),
    specs: [["display", ["16-inch WQXGA, 165 Hz", "WQXGA مقاس 16 بوصة و165 هرتز"]], ["chip", "Intel Core i7-14650HX"], ["graphics", "NVIDIA GeForce RTX 4060 8 GB"], ["ram", ["16 GB", "16 جيجابايت"]], ["storage", ["1 TB SSD", "SSD بسعة 1 تيرابايت"]]] },
  { slug: "hp-victus-15", category: "windows-laptops", brand: "hp", model: "15-fb1000", name: t("HP Victus 15 Gaming Laptop", "لابتوب الألعاب إتش بي فيكتوس 15"), price: 3499, compareAt: 3899, stock: 11, colour: "#22303c",
    highlight: t("An affordable way into PC gaming with a 144 Hz screen.", "مدخل اقتصادي إلى ألعاب الحاسوب مع شاشة 144 هرتز."),
    specs: [["display", ["15.6-inch FHD, 144 Hz", "FHD مقاس 15.6 بوصة و144 هرتز"]], ["chip", "AMD Ryzen 5 7535HS"], ["graphics", "NVIDIA GeForce RTX 2050"], ["ram", ["8 GB", "8 جيجابايت"]], ["storage", ["512 GB SSD", "SSD بسعة 512 جيجابايت"]]] },
  // Tablets
  { slug: "ipad-pro-11-m4", category: "tablets", brand: "apple", model: "MVV83", name: t("iPad Pro 11-inch M4 256GB", "آيباد برو 11 بوصة M4 بسعة 256 جيجابايت"), price: 4499, stock: 9, featured: true, isNew: true, colour: "#3a3a3c",
    highlight: t("The thinnest Apple product ever, with an Ultra Retina XDR tandem OLED display.", "أنحف منتج من أبل على الإطلاق، مع شاشة Ultra Retina XDR بتقنية OLED المزدوجة."),
    specs: [["display", ["11-inch Ultra Retina XDR", "Ultra Retina XDR مقاس 11 بوصة"]], ["chip", "Apple M4"], ["storage", ["256 GB", "256 جيجابايت"]], ["connectivity", "Wi-Fi 6E, Thunderbolt / USB 4"]] },
  { slug: "ipad-air-11-m2", category: "tablets", brand: "apple", model: "MUWD3", name: t("iPad Air 11-inch M2", "آيباد إير 11 بوصة M2"), price: 2799, stock: 14, colour: "#b6c8e0",
    highlight: t("M2 power and Apple Pencil Pro support in a light, colourful design.", "قوة M2 ودعم Apple Pencil Pro في تصميم خفيف وملون."),
    specs: [["display", ["11-inch Liquid Retina", "Liquid Retina مقاس 11 بوصة"]], ["chip", "Apple M2"], ["storage", ["128 GB", "128 جيجابايت"]], ["weight", ["462 g", "462 جرامًا"]]] },
  { slug: "ipad-10th-gen", category: "tablets", brand: "apple", model: "MPQ03", name: t("iPad 10.9-inch (10th generation) 64GB", "آيباد 10.9 بوصة (الجيل العاشر) 64 جيجابايت"), price: 1599, compareAt: 1799, stock: 30, colour: "#e8b7c4",
    highlight: t("An all-screen design and USB-C, ideal for school.", "تصميم بشاشة كاملة ومنفذ USB-C، مثالي للمدرسة."),
    specs: [["display", ["10.9-inch Liquid Retina", "Liquid Retina مقاس 10.9 بوصة"]], ["chip", "A14 Bionic"], ["storage", ["64 GB", "64 جيجابايت"]]] },
  { slug: "galaxy-tab-s9", category: "tablets", brand: "samsung", model: "SM-X710", name: t("Galaxy Tab S9", "جالاكسي تاب S9"), price: 3199, compareAt: 3599, stock: 5, colour: "#585c63",
    highlight: t("Water-resistant tablet with S Pen included and a Dynamic AMOLED 2X screen.", "جهاز لوحي مقاوم للماء مع قلم S Pen وشاشة Dynamic AMOLED 2X."),
    specs: [["display", ["11-inch Dynamic AMOLED 2X, 120 Hz", "Dynamic AMOLED 2X مقاس 11 بوصة و120 هرتز"]], ["chip", "Snapdragon 8 Gen 2 for Galaxy"], ["storage", ["128 GB", "128 جيجابايت"]], ["water", "IP68"]] },
  { slug: "galaxy-tab-a9-plus", category: "tablets", brand: "samsung", model: "SM-X216B", name: t("Galaxy Tab A9+ 5G 64GB", "جالاكسي تاب A9+ 5G بسعة 64 جيجابايت"), price: 999, stock: 0, colour: "#7d8590",
    highlight: t("A family tablet with quad speakers and 5G for streaming anywhere.", "جهاز لوحي للعائلة بأربعة مكبرات صوت وشبكة 5G للبث في أي مكان."),
    specs: [["display", ["11-inch, 90 Hz", "مقاس 11 بوصة و90 هرتز"]], ["storage", ["64 GB", "64 جيجابايت"]], ["connectivity", "5G, Wi-Fi 5"]] },
  { slug: "xiaomi-pad-6", category: "tablets", brand: "xiaomi", model: "23043RP34G", name: t("Xiaomi Pad 6 8GB/256GB", "شاومي باد 6 بذاكرة 8 وسعة 256 جيجابايت"), price: 1399, compareAt: 1599, stock: 17, colour: "#4f6d7a",
    highlight: t("A 144 Hz 2.8K screen at a price that makes sense.", "شاشة 2.8K بمعدل 144 هرتز بسعر معقول."),
    specs: [["display", ["11-inch 2.8K, 144 Hz", "مقاس 11 بوصة بدقة 2.8K و144 هرتز"]], ["chip", "Snapdragon 870"], ["ram", ["8 GB", "8 جيجابايت"]], ["storage", ["256 GB", "256 جيجابايت"]]] },
  // TVs
  { slug: "lg-oled-c3-65", category: "tvs", brand: "lg", model: "OLED65C36LC", name: t("LG OLED evo C3 4K Smart TV", "تلفزيون إل جي OLED evo C3 الذكي 4K"), price: 8999, compareAt: 10999, stock: 4, maxPerOrder: 2, featured: true, colour: "#101418",
    highlight: t("Perfect blacks, Dolby Vision and four HDMI 2.1 ports for gaming at 120 Hz.", "أسود مثالي ودعم Dolby Vision وأربعة منافذ HDMI 2.1 للألعاب بمعدل 120 هرتز."),
    specs: [["size", ["65 inches", "65 بوصة"]], ["panel", "OLED evo 4K"], ["refresh", ["120 Hz", "120 هرتز"]], ["os", "webOS 23"], ["ports", "4× HDMI 2.1"]] },
  { slug: "samsung-neo-qled-qn90c-55", category: "tvs", brand: "samsung", model: "QA55QN90CAUXZN", name: t("Samsung Neo QLED QN90C 4K", "تلفزيون سامسونج نيو QLED QN90C بدقة 4K"), price: 5499, compareAt: 6499, stock: 6, maxPerOrder: 2, colour: "#1c2430",
    highlight: t("Mini LED brightness that stays vivid even in a sunlit majlis.", "سطوع Mini LED يبقى زاهيًا حتى في مجلس مشمس."),
    specs: [["size", ["55 inches", "55 بوصة"]], ["panel", "Neo QLED (Mini LED)"], ["refresh", ["144 Hz", "144 هرتز"]], ["os", "Tizen"]] },
  { slug: "sony-bravia-7-65", category: "tvs", brand: "sony", model: "K-65XR70", name: t("Sony BRAVIA 7 Mini LED", "سوني برافيا 7 Mini LED"), price: 9499, stock: 2, maxPerOrder: 1, isNew: true, colour: "#0d1117",
    highlight: t("Cognitive Processor XR with XR Backlight Master Drive for cinema at home.", "معالج XR الإدراكي مع تقنية XR Backlight Master Drive لسينما في منزلك."),
    specs: [["size", ["65 inches", "65 بوصة"]], ["panel", "Mini LED QLED"], ["refresh", ["120 Hz", "120 هرتز"]], ["os", "Google TV"]] },
  { slug: "samsung-crystal-uhd-50", category: "tvs", brand: "samsung", model: "UA50CU7000", name: t("Samsung Crystal UHD CU7000 50-inch", "سامسونج كريستال UHD CU7000 مقاس 50 بوصة"), price: 1699, compareAt: 1999, stock: 22, colour: "#20262e",
    highlight: t("Sharp 4K and smart apps for the bedroom or the office.", "دقة 4K واضحة وتطبيقات ذكية لغرفة النوم أو المكتب."),
    specs: [["size", ["50 inches", "50 بوصة"]], ["panel", "Crystal UHD 4K"], ["refresh", ["60 Hz", "60 هرتز"]], ["os", "Tizen"]] },
  { slug: "lg-qned81-75", category: "tvs", brand: "lg", model: "75QNED816RA", name: t("LG QNED81 75-inch 4K Smart TV", "تلفزيون إل جي QNED81 الذكي مقاس 75 بوصة"), price: 6999, stock: 0, maxPerOrder: 1, colour: "#161b22",
    highlight: t("A huge 75-inch screen with Quantum Dot NanoCell colour.", "شاشة ضخمة مقاس 75 بوصة بألوان Quantum Dot NanoCell."),
    specs: [["size", ["75 inches", "75 بوصة"]], ["panel", "QNED 4K"], ["os", "webOS 23"]] },
  { slug: "xiaomi-tv-a-pro-43", category: "tvs", brand: "xiaomi", model: "L43M8-A2ME", name: t("Xiaomi TV A Pro 43-inch 4K", "تلفزيون شاومي A Pro مقاس 43 بوصة 4K"), price: 1199, stock: 13, colour: "#2a2f36",
    highlight: t("A metal bezel-less design with Google TV built in.", "تصميم معدني بلا حواف مع Google TV مدمج."),
    specs: [["size", ["43 inches", "43 بوصة"]], ["panel", "QLED 4K"], ["os", "Google TV"]] },
  // Headphones
  { slug: "airpods-pro-2", category: "headphones", brand: "apple", model: "MTJV3", name: t("AirPods Pro (2nd generation) with USB-C", "إيربودز برو (الجيل الثاني) مع USB-C"), price: 949, compareAt: 1049, stock: 40, featured: true, colour: "#f4f4f4",
    highlight: t("Twice the noise cancellation, Adaptive Audio and a case you can find with Find My.", "إلغاء ضوضاء مضاعف وصوت تكيفي وعلبة يمكن العثور عليها عبر تطبيق تحديد الموقع."),
    specs: [["anc", ["Active, with Transparency mode", "نشط مع وضع الشفافية"]], ["playtime", ["Up to 30 hours with case", "حتى 30 ساعة مع العلبة"]], ["water", "IP54"], ["connectivity", "Bluetooth 5.3, USB-C"]] },
  { slug: "sony-wh-1000xm5", category: "headphones", brand: "sony", model: "WH-1000XM5", name: t("Sony WH-1000XM5 Noise Cancelling Headphones", "سماعات سوني WH-1000XM5 العازلة للضوضاء"), price: 1399, compareAt: 1599, stock: 12, featured: true, colour: "#2d2d2d",
    highlight: t("Industry-leading noise cancelling with eight microphones for crystal-clear calls.", "إلغاء ضوضاء رائد مع ثمانية ميكروفونات لمكالمات واضحة تمامًا."),
    specs: [["anc", ["Yes, with Auto NC Optimizer", "نعم، مع التحسين التلقائي"]], ["playtime", ["Up to 30 hours", "حتى 30 ساعة"]], ["weight", ["250 g", "250 جرامًا"]], ["connectivity", "Bluetooth 5.2, LDAC"]] },
  { slug: "bose-quietcomfort-ultra", category: "headphones", brand: "bose", model: "880066-0100", name: t("Bose QuietComfort Ultra Headphones", "سماعات بوز كوايت كومفورت ألترا"), price: 1599, stock: 3, colour: "#e9e2d6",
    highlight: t("Immersive spatial audio and Bose's quietest noise cancelling yet.", "صوت مكاني غامر وأهدأ إلغاء ضوضاء من بوز حتى الآن."),
    specs: [["anc", ["Yes, CustomTune", "نعم، مع CustomTune"]], ["playtime", ["Up to 24 hours", "حتى 24 ساعة"]], ["sound", ["Bose Immersive Audio", "صوت بوز الغامر"]]] },
  { slug: "galaxy-buds3-pro", category: "headphones", brand: "samsung", model: "SM-R630", name: t("Galaxy Buds3 Pro", "جالاكسي بودز 3 برو"), price: 899, stock: 20, isNew: true, colour: "#c0c4ca",
    highlight: t("Blade lights, adaptive noise control and 24-bit Hi-Fi sound.", "إضاءة الشفرة وتحكم تكيفي في الضوضاء وصوت Hi-Fi بدقة 24 بت."),
    specs: [["anc", ["Adaptive ANC", "إلغاء ضوضاء تكيفي"]], ["playtime", ["Up to 26 hours with case", "حتى 26 ساعة مع العلبة"]], ["water", "IP57"]] },
  { slug: "jbl-tune-770nc", category: "headphones", brand: "jbl", model: "JBLT770NC", name: t("JBL Tune 770NC Wireless Headphones", "سماعات جي بي إل تيون 770NC اللاسلكية"), price: 399, compareAt: 499, stock: 35, colour: "#2f5fa8",
    highlight: t("JBL Pure Bass and adaptive noise cancelling for up to 70 hours.", "جهير JBL النقي وإلغاء ضوضاء تكيفي لمدة تصل إلى 70 ساعة."),
    specs: [["anc", ["Adaptive", "تكيفي"]], ["playtime", ["Up to 70 hours", "حتى 70 ساعة"]], ["connectivity", "Bluetooth 5.3"]] },
  // Speakers
  { slug: "jbl-charge-5", category: "speakers", brand: "jbl", model: "JBLCHARGE5", name: t("JBL Charge 5 Portable Speaker", "مكبر صوت جي بي إل تشارج 5 المحمول"), price: 649, compareAt: 749, stock: 26, colour: "#d32f2f",
    highlight: t("Bold sound for the desert trip, and a power bank for your phone.", "صوت قوي لرحلات البر، ويشحن هاتفك أيضًا."),
    specs: [["playtime", ["Up to 20 hours", "حتى 20 ساعة"]], ["water", "IP67"], ["power", ["40 W", "40 واط"]]] },
  { slug: "bose-soundlink-flex", category: "speakers", brand: "bose", model: "865983-0100", name: t("Bose SoundLink Flex Bluetooth Speaker", "مكبر صوت بوز ساوند لينك فليكس"), price: 599, stock: 0, colour: "#394b59",
    highlight: t("Rugged, floats in water and sounds bigger than its size.", "متين ويطفو على الماء وصوته أكبر من حجمه."),
    specs: [["playtime", ["Up to 12 hours", "حتى 12 ساعة"]], ["water", "IP67"], ["weight", ["0.6 kg", "0.6 كجم"]]] },
  { slug: "sony-ult-field-1", category: "speakers", brand: "sony", model: "SRS-ULT10", name: t("Sony ULT FIELD 1 Wireless Speaker", "مكبر صوت سوني ULT FIELD 1 اللاسلكي"), price: 449, stock: 15, isNew: true, colour: "#3d5a40",
    highlight: t("Massive ULT bass in a shockproof body with a strap.", "جهير ULT هائل في هيكل مقاوم للصدمات مع حزام."),
    specs: [["playtime", ["Up to 12 hours", "حتى 12 ساعة"]], ["water", "IP67"]] },
  // Cameras
  { slug: "canon-eos-r6-mark-ii", category: "cameras", brand: "canon", model: "EOS R6 Mark II", name: t("Canon EOS R6 Mark II Body", "كانون EOS R6 مارك II (الهيكل فقط)"), price: 9999, compareAt: 10999, stock: 3, colour: "#1a1a1a",
    highlight: t("24 MP full frame at 40 fps with subject detection for people, animals and cars.", "إطار كامل 24 ميجابكسل بسرعة 40 لقطة في الثانية مع تتبع الأشخاص والحيوانات والسيارات."),
    specs: [["sensor", ["24.2 MP full frame", "إطار كامل 24.2 ميجابكسل"]], ["video", ["4K 60p", "4K بمعدل 60 إطارًا"]], ["weight", ["670 g", "670 جرامًا"]]] },
  { slug: "canon-eos-r50-kit", category: "cameras", brand: "canon", model: "EOS R50", name: t("Canon EOS R50 with RF-S 18-45mm Lens", "كانون EOS R50 مع عدسة RF-S 18-45 مم"), price: 3299, stock: 8, colour: "#262626",
    highlight: t("A light first mirrorless camera that sends photos to your phone.", "أول كاميرا بدون مرآة خفيفة الوزن ترسل الصور إلى هاتفك."),
    specs: [["sensor", ["24.2 MP APS-C", "APS-C بدقة 24.2 ميجابكسل"]], ["lens", "RF-S 18-45mm f/4.5-6.3 IS STM"], ["video", ["4K 30p", "4K بمعدل 30 إطارًا"]]] },
  { slug: "sony-alpha-7-iv", category: "cameras", brand: "sony", model: "ILCE-7M4", name: t("Sony Alpha 7 IV Body", "سوني ألفا 7 IV (الهيكل فقط)"), price: 9299, stock: 5, featured: true, colour: "#222326",
    highlight: t("The all-rounder: 33 MP stills and 10-bit 4K video.", "الخيار الشامل: صور 33 ميجابكسل وفيديو 4K بعمق 10 بت."),
    specs: [["sensor", ["33 MP full frame", "إطار كامل 33 ميجابكسل"]], ["video", ["4K 60p 10-bit", "4K بمعدل 60 إطارًا و10 بت"]], ["weight", ["658 g", "658 جرامًا"]]] },
  { slug: "sony-zv-e10", category: "cameras", brand: "sony", model: "ILCE-ZVE10", name: t("Sony ZV-E10 Vlog Camera Kit", "كاميرا سوني ZV-E10 لصناعة المحتوى"), price: 2799, compareAt: 2999, stock: 0, colour: "#f1f1ef",
    highlight: t("Built for creators: a flip screen, a directional microphone and one-touch background blur.", "مصممة لصناع المحتوى: شاشة قلابة وميكروفون اتجاهي وتغبيش الخلفية بلمسة."),
    specs: [["sensor", ["24.2 MP APS-C", "APS-C بدقة 24.2 ميجابكسل"]], ["lens", "E PZ 16-50mm"], ["video", ["4K 30p", "4K بمعدل 30 إطارًا"]]] },
  { slug: "nikon-z6-iii", category: "cameras", brand: "nikon", model: "Z6III", name: t("Nikon Z6III Body", "نيكون Z6III (الهيكل فقط)"), price: 10499, stock: 2, maxPerOrder: 1, isNew: true, colour: "#111111",
    highlight: t("A partially stacked sensor and 6K RAW video from a compact body.", "مستشعر شبه مكدس وفيديو 6K RAW من هيكل مدمج."),
    specs: [["sensor", ["24.5 MP full frame", "إطار كامل 24.5 ميجابكسل"]], ["video", ["6K 60p N-RAW", "6K بمعدل 60 إطارًا N-RAW"]]] },
  { slug: "sony-rx100-vii", category: "cameras", brand: "sony", model: "DSC-RX100M7", name: t("Sony RX100 VII Compact Camera", "كاميرا سوني RX100 VII المدمجة"), price: 4599, stock: 4, colour: "#2b2b2b",
    highlight: t("A pocket camera with a 24-200 mm zoom and real-time tracking.", "كاميرا جيب بعدسة زوم 24-200 مم وتتبع فوري."),
    specs: [["sensor", ["20.1 MP 1-inch", "مستشعر بوصة واحدة 20.1 ميجابكسل"]], ["lens", "ZEISS 24-200mm f/2.8-4.5"]] },
  // Consoles
  { slug: "playstation-5-slim", category: "consoles", brand: "sony", model: "CFI-2016", name: t("PlayStation 5 Slim Console", "جهاز بلايستيشن 5 سليم"), price: 1999, compareAt: 2199, stock: 9, maxPerOrder: 2, featured: true, colour: "#eef0f3",
    highlight: t("Lightning-fast loading, haptic feedback and a 1 TB SSD.", "تحميل فائق السرعة واستجابة لمسية وSSD بسعة 1 تيرابايت."),
    specs: [["storage", ["1 TB SSD", "SSD بسعة 1 تيرابايت"]], ["video", ["Up to 4K 120 Hz", "حتى 4K بمعدل 120 هرتز"]], ["connectivity", "Wi-Fi 6, Bluetooth 5.1"]] },
  { slug: "xbox-series-x", category: "consoles", brand: "microsoft", model: "RRT-00010", name: t("Xbox Series X 1TB", "إكس بوكس سيريس X بسعة 1 تيرابايت"), price: 2199, stock: 6, maxPerOrder: 2, colour: "#111411",
    highlight: t("The fastest, most powerful Xbox, ready for Game Pass.", "أسرع وأقوى جهاز إكس بوكس، جاهز لخدمة Game Pass."),
    specs: [["storage", ["1 TB SSD", "SSD بسعة 1 تيرابايت"]], ["video", ["4K at up to 120 fps", "4K حتى 120 إطارًا في الثانية"]]] },
  { slug: "nintendo-switch-oled", category: "consoles", brand: "nintendo", model: "HEG-001", name: t("Nintendo Switch OLED Model", "نينتندو سويتش إصدار OLED"), price: 1399, compareAt: 1499, stock: 0, colour: "#e60012",
    highlight: t("A vivid 7-inch OLED screen for play at home or on the go.", "شاشة OLED زاهية مقاس 7 بوصات للعب في المنزل أو أثناء التنقل."),
    specs: [["display", ["7-inch OLED", "OLED مقاس 7 بوصات"]], ["storage", ["64 GB", "64 جيجابايت"]]] },
  { slug: "playstation-portal", category: "consoles", brand: "sony", model: "CFIJ-18000", name: t("PlayStation Portal Remote Player", "جهاز بلايستيشن بورتال للعب عن بعد"), price: 899, stock: 3, isNew: true, colour: "#f5f5f7",
    highlight: t("Play your PS5 over Wi-Fi on an 8-inch screen anywhere in the house.", "العب بجهاز PS5 عبر الواي فاي على شاشة 8 بوصات في أي مكان بالمنزل."),
    specs: [["display", ["8-inch LCD, 1080p 60 fps", "LCD مقاس 8 بوصات بدقة 1080p"]], ["connectivity", "Wi-Fi 5"]] },
  // Gaming accessories
  { slug: "dualsense-edge", category: "gaming-accessories", brand: "sony", model: "CFI-ZCP1", name: t("DualSense Edge Wireless Controller", "يد التحكم اللاسلكية دول سينس إيدج"), price: 849, stock: 11, colour: "#f0f0f0",
    highlight: t("Swappable stick modules and back buttons for competitive play.", "وحدات عصا قابلة للتبديل وأزرار خلفية للعب التنافسي."),
    specs: [["compat", "PlayStation 5, PC"], ["connectivity", "Bluetooth, USB-C"]] },
  { slug: "xbox-wireless-controller", category: "gaming-accessories", brand: "microsoft", model: "QAT-00001", name: t("Xbox Wireless Controller – Carbon Black", "يد تحكم إكس بوكس اللاسلكية – أسود كربوني"), price: 249, compareAt: 299, stock: 50, colour: "#1e1e1e",
    highlight: t("Textured grips and a hybrid D-pad; works with Xbox, PC and phones.", "مقابض محببة وأزرار اتجاه هجينة، يعمل مع إكس بوكس والحاسوب والهواتف."),
    specs: [["compat", "Xbox Series X|S, Xbox One, Windows, Android, iOS"], ["battery", ["2× AA, up to 40 hours", "بطاريتان AA حتى 40 ساعة"]]] },
  // Wearables
  { slug: "apple-watch-series-9-45", category: "wearables", brand: "apple", model: "MR9A3", name: t("Apple Watch Series 9 GPS 45mm", "ساعة أبل الإصدار 9 GPS مقاس 45 مم"), price: 1899, compareAt: 1999, stock: 13, featured: true, colour: "#e3c9c0",
    highlight: t("Double tap, a brighter display and on-device Siri.", "ميزة النقر المزدوج وشاشة أكثر سطوعًا وسيري على الجهاز."),
    specs: [["display", ["Always-On Retina, 2000 nits", "Retina دائمة التشغيل بسطوع 2000 شمعة"]], ["water", ["WR50", "مقاومة حتى 50 مترًا"]], ["playtime", ["Up to 18 hours", "حتى 18 ساعة"]]] },
  { slug: "apple-watch-ultra-2", category: "wearables", brand: "apple", model: "MREJ3", name: t("Apple Watch Ultra 2 49mm", "ساعة أبل ألترا 2 مقاس 49 مم"), price: 3399, stock: 4, colour: "#c8b79e",
    highlight: t("A rugged titanium case, precision dual-frequency GPS and 36-hour battery.", "هيكل متين من التيتانيوم ونظام GPS دقيق ثنائي التردد وبطارية 36 ساعة."),
    specs: [["display", ["Always-On Retina, 3000 nits", "Retina دائمة التشغيل بسطوع 3000 شمعة"]], ["material", ["Titanium", "تيتانيوم"]], ["water", ["WR100, dive to 40 m", "مقاومة حتى 100 متر والغوص حتى 40 مترًا"]]] },
  { slug: "galaxy-watch6-classic-47", category: "wearables", brand: "samsung", model: "SM-R960", name: t("Galaxy Watch6 Classic 47mm", "ساعة جالاكسي واتش 6 كلاسيك مقاس 47 مم"), price: 1499, compareAt: 1699, stock: 10, colour: "#2c2c2e",
    highlight: t("The rotating bezel is back, with sleep coaching and body composition.", "عودة الإطار الدوار مع تدريب النوم وقياس مكونات الجسم."),
    specs: [["display", ["1.5-inch Super AMOLED", "Super AMOLED مقاس 1.5 بوصة"]], ["water", ["5ATM, IP68", "5ATM و IP68"]]] },
  { slug: "garmin-fenix-7-pro-solar", category: "wearables", brand: "garmin", model: "010-02777", name: t("Garmin fēnix 7 Pro Solar", "جارمن فينيكس 7 برو سولار"), price: 3099, stock: 0, colour: "#3a3f3a",
    highlight: t("Solar charging, a built-in flashlight and maps for the mountains and the dunes.", "شحن بالطاقة الشمسية ومصباح مدمج وخرائط للجبال والكثبان."),
    specs: [["playtime", ["Up to 22 days, more with solar", "حتى 22 يومًا وأكثر مع الطاقة الشمسية"]], ["water", "10 ATM"], ["material", ["Fibre-reinforced polymer, steel bezel", "بوليمر مقوى وإطار من الفولاذ"]]] },
  { slug: "huawei-watch-gt4-46", category: "wearables", brand: "huawei", model: "PNX-B19", name: t("HUAWEI WATCH GT 4 46mm", "ساعة هواوي GT 4 مقاس 46 مم"), price: 899, compareAt: 999, stock: 21, colour: "#6b4f3a",
    highlight: t("A classic octagonal design with two weeks of battery life.", "تصميم ثماني كلاسيكي مع بطارية تدوم أسبوعين."),
    specs: [["display", ["1.43-inch AMOLED", "AMOLED مقاس 1.43 بوصة"]], ["playtime", ["Up to 14 days", "حتى 14 يومًا"]]] },
  { slug: "xiaomi-smart-band-8", category: "wearables", brand: "xiaomi", model: "M2239B1", name: t("Xiaomi Smart Band 8", "سوار شاومي الذكي 8"), price: 169, compareAt: 199, stock: 60, maxPerOrder: 10, colour: "#202020",
    highlight: t("150+ sport modes and 16 days of battery in a light band.", "أكثر من 150 وضعًا رياضيًا وبطارية 16 يومًا في سوار خفيف."),
    specs: [["display", ["1.62-inch AMOLED", "AMOLED مقاس 1.62 بوصة"]], ["playtime", ["Up to 16 days", "حتى 16 يومًا"]], ["water", "5 ATM"]] },
  // Smart home
  { slug: "google-nest-hub-2", category: "smart-home", brand: "google", model: "GA01331", name: t("Google Nest Hub (2nd generation)", "جوجل نست هب (الجيل الثاني)"), price: 449, stock: 8, colour: "#dcdad5",
    highlight: t("A smart display for the kitchen: recipes, timers and your home at a glance.", "شاشة ذكية للمطبخ: وصفات ومؤقتات ومنزلك بنظرة واحدة."),
    specs: [["display", ["7-inch touchscreen", "شاشة لمس مقاس 7 بوصات"]], ["connectivity", "Wi-Fi, Bluetooth, Thread"]] },
  { slug: "tapo-c210-camera", category: "smart-home", brand: "tp-link", model: "Tapo C210", name: t("Tapo C210 Pan/Tilt Wi-Fi Security Camera", "كاميرا المراقبة تابو C210 اللاسلكية الدوارة"), price: 149, compareAt: 179, stock: 45, maxPerOrder: 10, colour: "#f7f7f7",
    highlight: t("3 MP video, night vision and motion alerts on your phone.", "فيديو بدقة 3 ميجابكسل ورؤية ليلية وتنبيهات الحركة على هاتفك."),
    specs: [["video", ["3 MP (2304×1296)", "3 ميجابكسل (2304×1296)"]], ["connectivity", "Wi-Fi 2.4 GHz"], ["storage", ["microSD up to 512 GB", "بطاقة microSD حتى 512 جيجابايت"]]] },
  { slug: "philips-hue-starter-kit-e27", category: "smart-home", brand: "philips", model: "929002468803", name: t("Philips Hue White and Colour Ambiance Starter Kit E27", "طقم بداية فيليبس هيو للإضاءة البيضاء والملونة E27"), price: 899, stock: 7, colour: "#7b3fa0",
    highlight: t("Three colour bulbs and the Hue Bridge: sixteen million colours from your phone or voice.", "ثلاث لمبات ملونة وجسر Hue: ستة عشر مليون لون من هاتفك أو بصوتك."),
    specs: [["capacity", ["3 bulbs + Bridge", "3 لمبات + جسر"]], ["power", ["9 W each (60 W equivalent)", "9 واط لكل لمبة (تعادل 60 واط)"]]] },
  { slug: "xiaomi-robot-vacuum-s10-plus", category: "smart-home", brand: "xiaomi", model: "B105", name: t("Xiaomi Robot Vacuum S10+", "مكنسة شاومي الروبوتية S10+"), price: 1999, compareAt: 2299, stock: 5, colour: "#e9ecef",
    highlight: t("4000 Pa suction and rotating mops that lift on carpets.", "قوة شفط 4000 باسكال وممسحات دوارة ترتفع فوق السجاد."),
    specs: [["power", ["4000 Pa suction", "قوة شفط 4000 باسكال"]], ["playtime", ["Up to 180 minutes", "حتى 180 دقيقة"]]] },
  { slug: "homepod-mini", category: "smart-home", brand: "apple", model: "MY5G2", name: t("HomePod mini", "هوم بود ميني"), price: 449, stock: 0, colour: "#f4f5f0",
    highlight: t("Room-filling sound and a smart home hub in a small sphere.", "صوت يملأ الغرفة ومركز للمنزل الذكي في كرة صغيرة."),
    specs: [["sound", ["360-degree audio", "صوت بزاوية 360 درجة"]], ["connectivity", "Wi-Fi, Thread, Bluetooth 5.0"]] },
  { slug: "deco-x50-mesh-3-pack", category: "smart-home", brand: "tp-link", model: "Deco X50", name: t("Deco X50 Wi-Fi 6 Mesh System (3-pack)", "نظام Deco X50 للواي فاي 6 الشبكي (3 قطع)"), price: 999, compareAt: 1199, stock: 12, colour: "#ffffff",
    highlight: t("Seamless Wi-Fi 6 across a villa of up to 600 m².", "واي فاي 6 سلس في فيلا تصل مساحتها إلى 600 متر مربع."),
    specs: [["coverage", ["Up to 600 m²", "حتى 600 متر مربع"]], ["connectivity", "Wi-Fi 6 AX3000"], ["ports", ["3 Gigabit ports per unit", "3 منافذ جيجابت لكل وحدة"]]] },
  // Chargers and cables
  { slug: "anker-737-power-bank", category: "chargers-cables", brand: "anker", model: "A1289", name: t("Anker 737 Power Bank 24,000mAh 140W", "باور بانك أنكر 737 بسعة 24,000 مللي أمبير 140 واط"), price: 449, compareAt: 549, stock: 30, colour: "#2b2d31",
    highlight: t("Charges a laptop at 140 W, with a smart display showing what's left.", "يشحن اللابتوب بقدرة 140 واط مع شاشة ذكية تعرض الشحن المتبقي."),
    specs: [["capacity", ["24,000 mAh", "24,000 مللي أمبير"]], ["power", ["140 W", "140 واط"]], ["ports", "2× USB-C, 1× USB-A"]] },
  { slug: "anker-nano-65w-charger", category: "chargers-cables", brand: "anker", model: "A2663", name: t("Anker Nano 65W USB-C Charger", "شاحن أنكر نانو USB-C بقدرة 65 واط"), price: 159, stock: 80, maxPerOrder: 10, colour: "#5c7cfa",
    highlight: t("One small charger for your laptop, tablet and phone.", "شاحن صغير واحد للابتوب والجهاز اللوحي والهاتف."),
    specs: [["power", ["65 W", "65 واط"]], ["ports", "1× USB-C"], ["compat", ["MacBook, iPhone, Galaxy, iPad", "ماك بوك وآيفون وجالاكسي وآيباد"]]] },
  { slug: "apple-20w-usb-c-adapter", category: "chargers-cables", brand: "apple", model: "MHJA3", name: t("Apple 20W USB-C Power Adapter", "محول طاقة أبل USB-C بقدرة 20 واط"), price: 89, stock: 3, colour: "#fafafa",
    highlight: t("Fast-charges iPhone to 50% in around 30 minutes.", "يشحن الآيفون بسرعة حتى 50% في نحو 30 دقيقة."),
    specs: [["power", ["20 W", "20 واط"]], ["compat", ["iPhone, iPad, AirPods", "آيفون وآيباد وإيربودز"]]] },
  { slug: "samsung-45w-charger", category: "chargers-cables", brand: "samsung", model: "EP-T4510", name: t("Samsung 45W Super Fast Charger", "شاحن سامسونج فائق السرعة 45 واط"), price: 149, compareAt: 179, stock: 25, colour: "#111111",
    highlight: t("Super Fast Charging 2.0 for Galaxy S and Tab, cable included.", "شحن فائق السرعة 2.0 لهواتف جالاكسي S وأجهزة تاب، مع الكابل."),
    specs: [["power", ["45 W", "45 واط"]], ["compat", ["Galaxy S24 Ultra, Galaxy Tab S9", "جالاكسي S24 ألترا وجالاكسي تاب S9"]]] },
  { slug: "apple-240w-usb-c-cable-2m", category: "chargers-cables", brand: "apple", model: "MU2G3", name: t("Apple 240W USB-C Charge Cable (2 m)", "كابل شحن أبل USB-C بقدرة 240 واط (2 متر)"), price: 119, stock: 0, colour: "#f2f2f2",
    highlight: t("A woven design that resists tangles, for charging at up to 240 W.", "تصميم منسوج يقاوم التشابك للشحن بقدرة تصل إلى 240 واط."),
    specs: [["power", ["Up to 240 W", "حتى 240 واط"]], ["material", ["Woven", "منسوج"]]] },
  // Cases and protection
  { slug: "iphone-15-pro-silicone-case", category: "cases-protection", brand: "apple", model: "MT1D3", name: t("iPhone 15 Pro Silicone Case with MagSafe", "جراب سيليكون ايفون 15 برو مع MagSafe"), price: 219, stock: 18, colour: "#c94f3d",
    highlight: t("Soft-touch silicone with a microfibre lining that snaps on with MagSafe.", "سيليكون ناعم الملمس مع بطانة من الألياف الدقيقة يُثبّت بتقنية MagSafe."),
    specs: [["compat", ["iPhone 15 Pro", "آيفون 15 برو"]], ["material", ["Silicone", "سيليكون"]]] },
  { slug: "galaxy-s24-ultra-clear-case", category: "cases-protection", brand: "samsung", model: "EF-QS928", name: t("Galaxy S24 Ultra Clear Case", "غطاء جالاكسي S24 ألترا الشفاف"), price: 99, compareAt: 129, stock: 40, maxPerOrder: 10, colour: "#dfe7ee",
    highlight: t("Shows off your phone's colour while protecting it from drops.", "يُظهر لون هاتفك ويحميه من السقوط."),
    specs: [["compat", ["Galaxy S24 Ultra (SM-S928B)", "جالاكسي S24 ألترا (SM-S928B)"]], ["material", ["Polycarbonate and TPU", "بولي كربونات وTPU"]]] },
  { slug: "ipad-pro-11-smart-folio", category: "cases-protection", brand: "apple", model: "MW983", name: t("Smart Folio for iPad Pro 11-inch (M4)", "غطاء Smart Folio لآيباد برو 11 بوصة (M4)"), price: 349, stock: 6, colour: "#d8d8d8",
    highlight: t("Wakes the iPad when opened and folds into a stand.", "يوقظ الآيباد عند فتحه وينطوي ليصبح حاملًا."),
    specs: [["compat", ["iPad Pro 11-inch (M4)", "آيباد برو 11 بوصة (M4)"]], ["material", ["Polyurethane", "بولي يوريثين"]]] },
];

/** Prices are entered in riyals; the catalogue stores halalas. */
const halalas = (riyals: number) => Math.round(riyals * 100);

export const productImages = (slug: string) => [
  `/backend/media/products/${slug}.svg?v=1`,
  `/backend/media/products/${slug}.svg?v=1&view=2`,
];

/** The demo products with ids, resolved references and both languages' texts. */
export function seedProducts() {
  const categoryBySlug = new Map(CATEGORIES.map((c) => [c.slug, c]));
  const brandBySlug = new Map(BRANDS.map((b) => [b.slug, b]));
  // New arrivals are the most recent; the rest spread over the past year, so "newest" sorts well.
  const start = Date.UTC(2025, 10, 1);
  return PRODUCTS.map((p, index) => {
    const category = categoryBySlug.get(p.category);
    const brand = brandBySlug.get(p.brand);
    if (!category || !brand) throw new Error(`Seed product ${p.slug} has an unknown category or brand`);
    const top = category.parent ? categoryBySlug.get(category.parent) : category;
    if (!top) throw new Error(`Seed category ${category.slug} has an unknown parent`);
    const id = index + 1;
    const day = p.isNew ? 365 + index : index * 5;
    const copy = CATEGORY_COPY[top.slug];
    const specs = (lang: "en" | "ar") =>
      [...p.specs, ["warranty", ["2 years, Saudi agent", "سنتان، وكيل معتمد في السعودية"]] as Spec].map(
        ([label, value]) => ({
          label: LABELS[label][lang],
          value: typeof value === "string" ? value : value[lang === "en" ? 0 : 1],
        }),
      );
    return {
      id,
      slug: p.slug,
      sku: `${brand.slug.slice(0, 3).toUpperCase().replace(/-/g, "")}-${String(1000 + id)}`,
      model: p.model,
      category,
      top,
      brand,
      name: p.name,
      description: { en: `${p.highlight.en} ${copy.en}`, ar: `${p.highlight.ar} ${copy.ar}` },
      specs: { en: specs("en"), ar: specs("ar") },
      price: halalas(p.price),
      compareAt: p.compareAt === undefined ? null : halalas(p.compareAt),
      stock: p.stock,
      maxPerOrder: p.maxPerOrder ?? 5,
      featured: p.featured ?? false,
      isNew: p.isNew ?? false,
      colour: p.colour,
      createdAt: new Date(start + day * 86_400_000).toISOString(),
    };
  });
}

/** The folded text the search index holds for a product: its names and model rank above the rest. */
export function productSearchText(p: ReturnType<typeof seedProducts>[number]): {
  name: string;
  body: string;
  details: string;
} {
  const categories = p.top === p.category ? [p.category] : [p.category, p.top];
  return {
    name: indexText([p.name.en, p.name.ar, p.model].join(" ")),
    body: indexText(
      // As the worker writes it (services/console/products.ts, `searchBody`).
      [
        p.sku,
        p.brand.name.en,
        p.brand.name.ar,
        ...categories.flatMap((c) => [c.name.en, c.name.ar]),
        variantWords(p.slug),
      ].join(" "),
    ),
    // As the worker writes it (services/console/products.ts, `detailsText`).
    details: indexText(
      [
        p.description.en,
        p.description.ar,
        ...categories.flatMap((c) => [c.name.en, c.name.ar]),
        attributeWords(ownValues(p.slug)),
        variantWords(p.slug),
      ].join(" "),
    ),
  };
}

/** Statements that load categories, brands, products and the search index; safe to re-run. */
export function catalogueStatements(): string[] {
  const statements: string[] = [];
  // Parents first, so a subcategory's parent row exists when it is inserted.
  const ordered = [...CATEGORIES].sort((a, b) => Number(a.parent !== null) - Number(b.parent !== null));
  const ids = new Map(CATEGORIES.map((c) => [c.slug, c.id]));
  ordered.forEach((c, i) =>
    statements.push(
      insertOrIgnore("categories", {
        id: c.id,
        parent_id: c.parent ? (ids.get(c.parent) ?? null) : null,
        slug: c.slug,
        name_en: c.name.en,
        name_ar: c.name.ar,
        icon: c.icon,
        sort_order: i,
      }),
    ),
  );
  for (const b of BRANDS)
    statements.push(insertOrIgnore("brands", { id: b.id, slug: b.slug, name_en: b.name.en, name_ar: b.name.ar }));
  for (const p of seedProducts()) {
    statements.push(
      insertOrIgnore("products", {
        id: p.id,
        slug: p.slug,
        sku: p.sku,
        model: p.model,
        category_id: p.category.id,
        brand_id: p.brand.id,
        name_en: p.name.en,
        name_ar: p.name.ar,
        description_en: p.description.en,
        description_ar: p.description.ar,
        specs_en: JSON.stringify(p.specs.en),
        specs_ar: JSON.stringify(p.specs.ar),
        price: p.price,
        compare_at_price: p.compareAt,
        currency: "SAR",
        stock: p.stock,
        max_per_order: p.maxPerOrder,
        images: JSON.stringify(productImages(p.slug)),
        is_featured: p.featured,
        is_new: p.isNew,
        colour: p.colour,
        created_at: p.createdAt,
        updated_at: p.createdAt,
      }),
    );
    const text = productSearchText(p);
    // FTS5 tables have no unique constraint to ignore on, so the row is only added when missing.
    statements.push(
      `INSERT INTO product_search (rowid, name, body) SELECT ${p.id}, ${sqlValue(text.name)}, ${sqlValue(text.body)} WHERE NOT EXISTS (SELECT 1 FROM product_search WHERE rowid = ${p.id})`,
      `INSERT INTO product_details_search (rowid, details) SELECT ${p.id}, ${sqlValue(text.details)} WHERE NOT EXISTS (SELECT 1 FROM product_details_search WHERE rowid = ${p.id})`,
    );
  }
  return statements;
}

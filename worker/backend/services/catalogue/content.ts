import type { Lang } from "../../env";
import { productsWhere } from "./product";
import { categoryTree } from "./taxonomy";
import type { PageSummary, ContentPage, Service, ServiceDetails, Banner, HomeData } from "../../../../contract/content";
export type { PageSummary, ContentPage, Service, ServiceDetails, Banner, HomeData };

/** Content: pages, services, the home page and contact messages, as plain functions over D1. */

export const HOME_PRODUCTS = 8;

/** Localized column suffix: only ever "en" or "ar". */
const l = (lang: Lang) => (lang === "ar" ? "ar" : "en");

export async function listPages(db: D1Database, lang: Lang): Promise<PageSummary[]> {
  const { results } = await db
    .prepare(`SELECT slug, title_${l(lang)} AS title, excerpt_${l(lang)} AS excerpt FROM pages ORDER BY sort_order, id`)
    .all<PageSummary>();
  return results;
}

export async function getPage(db: D1Database, lang: Lang, slug: string): Promise<ContentPage | null> {
  return db
    .prepare(
      `SELECT slug, title_${l(lang)} AS title, excerpt_${l(lang)} AS excerpt, body_${l(lang)} AS body, updated_at FROM pages WHERE slug = ?`,
    )
    .bind(slug)
    .first<ContentPage>();
}

const serviceColumns = (lang: Lang) =>
  `id, slug, name_${l(lang)} AS name, summary_${l(lang)} AS summary, icon, price_from, currency`;

export async function listServices(db: D1Database, lang: Lang): Promise<Service[]> {
  const { results } = await db
    .prepare(`SELECT ${serviceColumns(lang)} FROM services ORDER BY sort_order, id`)
    .all<Service>();
  return results;
}

export async function getService(db: D1Database, lang: Lang, slug: string): Promise<ServiceDetails | null> {
  const row = await db
    .prepare(
      `SELECT ${serviceColumns(lang)}, description_${l(lang)} AS description, features_${l(lang)} AS features FROM services WHERE slug = ?`,
    )
    .bind(slug)
    .first<Service & { description: string; features: string }>();
  if (!row) return null;
  let features: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.features);
    if (Array.isArray(parsed)) features = parsed.filter((f): f is string => typeof f === "string");
  } catch {
    features = [];
  }
  return { ...row, features };
}

/** Arabic pages get the mirrored art, so the motif stays clear of right-to-left text. */
export const bannerImage = (id: number, lang: Lang) =>
  `/backend/media/banners/${id}.svg?v=1${lang === "ar" ? "&dir=rtl" : ""}`;

export async function listBanners(db: D1Database, lang: Lang): Promise<Banner[]> {
  const { results } = await db
    .prepare(
      `SELECT id, title_${l(lang)} AS title, subtitle_${l(lang)} AS subtitle, cta_${l(lang)} AS cta_label, link
       FROM banners WHERE active = 1 ORDER BY sort_order, id`,
    )
    .all<Omit<Banner, "image">>();
  return results.map((b) => ({ ...b, image: bannerImage(b.id, lang) }));
}

/** Everything the home page shows, in one answer. */
export async function homeData(db: D1Database, lang: Lang): Promise<HomeData> {
  const [banners, categories, featured, newArrivals, services] = await Promise.all([
    listBanners(db, lang),
    categoryTree(db, lang),
    productsWhere(db, lang, "featured", HOME_PRODUCTS),
    productsWhere(db, lang, "new", HOME_PRODUCTS),
    listServices(db, lang),
  ]);
  return { banners, categories, featured, new_arrivals: newArrivals, services };
}

export interface BannerArtFacts {
  id: number;
  colour_from: string;
  colour_to: string;
  motif: string;
}

export async function bannerArtFacts(db: D1Database, id: number): Promise<BannerArtFacts | null> {
  return db
    .prepare("SELECT id, colour_from, colour_to, motif FROM banners WHERE id = ?")
    .bind(id)
    .first<BannerArtFacts>();
}

export interface ContactMessage {
  name: string;
  email: string;
  phone?: string;
  subject: string;
  message: string;
}

/** Stores a contact message; the sender's IP is kept only as a hash. */
export async function saveContactMessage(
  db: D1Database,
  input: ContactMessage,
  meta: { lang: Lang; ipHash: string | null; requestId: string | null },
): Promise<{ id: number }> {
  const row = await db
    .prepare(
      "INSERT INTO contact_messages (name, email, phone, subject, message, lang, ip_hash, request_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(
      input.name,
      input.email,
      input.phone ?? null,
      input.subject,
      input.message,
      meta.lang,
      meta.ipHash,
      meta.requestId,
    )
    .first<{ id: number }>();
  if (!row) throw new Error("The contact message was not stored");
  return { id: row.id };
}

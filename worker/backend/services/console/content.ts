import type { ConsolePage, ConsoleService, PageInput, ServiceInput } from "../../../../contract/console-content";
import type { Lang } from "../../env";
import { bumpCatalogueVersion } from "../../cache";
import { notFound } from "../../http";
import { pageOf, type ListQuery } from "./list";
import { auditStatement } from "./audit-log";
import { auditTakesId, NOW, writing, type Staff } from "./writes";

/**
 * Services and content pages as the console runs them. Every write is one batch with
 * its audit line and the catalogue version bump, so the storefront's caches (keyed by that
 * version) stop answering the old text within a second.
 */

// ---------------------------------------------------------------------------------------------
// Services

interface ServiceRow extends Omit<ConsoleService, "features_en" | "features_ar"> {
  features_en: string;
  features_ar: string;
}

const strings = (json: string): string[] => {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === "string") : [];
  } catch {
    return [];
  }
};

const presentService = (r: ServiceRow): ConsoleService => ({
  ...r,
  features_en: strings(r.features_en),
  features_ar: strings(r.features_ar),
});

const SERVICE_SELECT =
  "id, slug, name_en, name_ar, summary_en, summary_ar, description_en, description_ar, features_en, features_ar, icon, price_from, sort_order";
const SERVICE_SORTS = {
  sort_order: "sort_order",
  name_en: "name_en COLLATE NOCASE",
  price_from: "price_from",
  slug: "slug",
};

export async function listServices(db: D1Database, query: ListQuery) {
  const { rows, meta } = await pageOf<ServiceRow>(db, SERVICE_SELECT, "FROM services", [], query, SERVICE_SORTS);
  return { rows: rows.map(presentService), meta };
}

export async function findService(db: D1Database, id: number): Promise<ConsoleService> {
  const row = await db.prepare(`SELECT ${SERVICE_SELECT} FROM services WHERE id = ?`).bind(id).first<ServiceRow>();
  if (!row) throw notFound();
  return presentService(row);
}

const serviceColumns = (s: ServiceInput) => [
  s.slug,
  s.name_en,
  s.name_ar,
  s.summary_en,
  s.summary_ar,
  s.description_en,
  s.description_ar,
  JSON.stringify(s.features_en),
  JSON.stringify(s.features_ar),
  s.icon,
  s.price_from,
  s.sort_order,
];

const serviceView = ({ id: _id, ...rest }: ServiceInput & { id?: number }) => rest;

export async function createService(db: D1Database, staff: Staff, lang: Lang, input: ServiceInput) {
  const [inserted] = await writing(lang, () =>
    db.batch([
      db
        .prepare(
          `INSERT INTO services (slug, name_en, name_ar, summary_en, summary_ar, description_en, description_ar, features_en, features_ar, icon, price_from, sort_order)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        )
        .bind(...serviceColumns(input)),
      auditStatement(db, staff, "service.create", "service", null, null, serviceView(input)),
      auditTakesId(db, "services", input.slug),
      bumpCatalogueVersion(db),
    ]),
  );
  return findService(db, (inserted!.results[0] as { id: number }).id);
}

export async function updateService(db: D1Database, staff: Staff, lang: Lang, id: number, input: ServiceInput) {
  const before = await findService(db, id);
  await writing(lang, () =>
    db.batch([
      db
        .prepare(
          `UPDATE services SET slug = ?, name_en = ?, name_ar = ?, summary_en = ?, summary_ar = ?, description_en = ?, description_ar = ?,
             features_en = ?, features_ar = ?, icon = ?, price_from = ?, sort_order = ? WHERE id = ?`,
        )
        .bind(...serviceColumns(input), id),
      auditStatement(db, staff, "service.update", "service", id, serviceView(before), serviceView(input)),
      bumpCatalogueVersion(db),
    ]),
  );
  return findService(db, id);
}

export async function deleteService(db: D1Database, staff: Staff, id: number) {
  const before = await findService(db, id);
  await db.batch([
    db.prepare("DELETE FROM services WHERE id = ?").bind(id),
    auditStatement(db, staff, "service.delete", "service", id, serviceView(before), null, { onlyIfChanged: true }),
    bumpCatalogueVersion(db),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Content pages

const PAGE_SELECT = "id, slug, title_en, title_ar, excerpt_en, excerpt_ar, body_en, body_ar, sort_order, updated_at";
const PAGE_SORTS = {
  sort_order: "sort_order",
  title_en: "title_en COLLATE NOCASE",
  slug: "slug",
  updated_at: "updated_at",
};

export async function listPages(db: D1Database, query: ListQuery) {
  return pageOf<ConsolePage>(db, PAGE_SELECT, "FROM pages", [], query, PAGE_SORTS);
}

export async function findPage(db: D1Database, id: number): Promise<ConsolePage> {
  const row = await db.prepare(`SELECT ${PAGE_SELECT} FROM pages WHERE id = ?`).bind(id).first<ConsolePage>();
  if (!row) throw notFound();
  return row;
}

const pageColumns = (p: PageInput) => [
  p.slug,
  p.title_en,
  p.title_ar,
  p.excerpt_en,
  p.excerpt_ar,
  p.body_en,
  p.body_ar,
  p.sort_order,
];

const pageView = ({ id: _id, updated_at: _at, ...rest }: PageInput & { id?: number; updated_at?: string }) => rest;

export async function createPage(db: D1Database, staff: Staff, lang: Lang, input: PageInput) {
  const [inserted] = await writing(lang, () =>
    db.batch([
      db
        .prepare(
          "INSERT INTO pages (slug, title_en, title_ar, excerpt_en, excerpt_ar, body_en, body_ar, sort_order) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(...pageColumns(input)),
      auditStatement(db, staff, "page.create", "page", null, null, pageView(input)),
      auditTakesId(db, "pages", input.slug),
      bumpCatalogueVersion(db),
    ]),
  );
  return findPage(db, (inserted!.results[0] as { id: number }).id);
}

export async function updatePage(db: D1Database, staff: Staff, lang: Lang, id: number, input: PageInput) {
  const before = await findPage(db, id);
  await writing(lang, () =>
    db.batch([
      db
        .prepare(
          `UPDATE pages SET slug = ?, title_en = ?, title_ar = ?, excerpt_en = ?, excerpt_ar = ?, body_en = ?, body_ar = ?, sort_order = ?,
             updated_at = ${NOW} WHERE id = ?`,
        )
        .bind(...pageColumns(input), id),
      auditStatement(db, staff, "page.update", "page", id, pageView(before), pageView(input)),
      bumpCatalogueVersion(db),
    ]),
  );
  return findPage(db, id);
}

export async function deletePage(db: D1Database, staff: Staff, id: number) {
  const before = await findPage(db, id);
  await db.batch([
    db.prepare("DELETE FROM pages WHERE id = ?").bind(id),
    auditStatement(db, staff, "page.delete", "page", id, pageView(before), null, { onlyIfChanged: true }),
    bumpCatalogueVersion(db),
  ]);
}

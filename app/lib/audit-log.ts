import { AUDIT_ACTIONS, AUDIT_ENTITIES, type AuditEntry, type AuditRecord } from "../../contract/console";
import { REGIONS, type RegionId } from "../../contract/regions";
import { type consoleFormat } from "./console-format";
import type { Translate } from "./i18n";
import { orderStatusKey } from "./orders";

/**
 * The audit log in the console's language: an action's name, its record's name and page, and the
 * change it made as field labels with old → new values (money in riyals, states and roles by
 * name), never raw JSON. Codes and fields the console does not know show as they came.
 */

type Format = ReturnType<typeof consoleFormat>;

/** An action's name: "Order refunded" / "استرداد مبلغ طلب"; an unknown code as it came. */
export function auditActionName(t: Translate, action: string): string {
  return (AUDIT_ACTIONS as readonly string[]).includes(action) ? t(`console.auditLog.actions.${action}`) : action;
}

/** A record as staff call it: "Order SQ-…", "Return of order SQ-…", "Product iPhone 15". */
export function auditRecordName(t: Translate, entity: string, record: AuditRecord): string {
  if (!(AUDIT_ENTITIES as readonly string[]).includes(entity)) return record.name ?? entity;
  return record.name
    ? t(`console.auditLog.entities.${entity}`, { name: record.name })
    : t(`console.auditLog.entitiesUnnamed.${entity}`);
}

const PAGES: Record<NonNullable<AuditRecord["page"]>, string> = {
  order: "/admin/orders/",
  product: "/admin/products/",
  category: "/admin/categories/",
  brand: "/admin/brands/",
  service: "/admin/services/",
  page: "/admin/pages/",
  promo_code: "/admin/promo-codes/",
  staff: "/admin/staff",
};

/** The console path of a line's record (without the locale), or null when no page shows it. */
export function auditRecordPath(record: AuditRecord): string | null {
  if (!record.page) return null;
  if (record.page === "staff") return PAGES.staff;
  return record.key ? `${PAGES[record.page]}${encodeURIComponent(record.key)}` : null;
}

/** How a field's value reads. */
type Kind =
  | "money"
  | "promo_value"
  | "status"
  | "role"
  | "yes_no"
  | "discount_type"
  | "inventory_reason"
  | "late_refund"
  | "moment"
  | "number"
  | "signed"
  | "list"
  | "zones"
  | "text";

/** The fields audit lines hold, in the order they are shown; `own`: labelled in console.auditLog.fields. */
const FIELDS: Record<string, { kind: Kind; own?: true }> = {
  status: { kind: "status" },
  role: { kind: "role" },
  email: { kind: "text" },
  staff_email: { kind: "text", own: true },
  name: { kind: "text", own: true },
  expires_at: { kind: "moment", own: true },
  phone: { kind: "text", own: true },
  code: { kind: "text", own: true },
  active: { kind: "yes_no" },
  name_en: { kind: "text" },
  name_ar: { kind: "text" },
  title_en: { kind: "text" },
  title_ar: { kind: "text" },
  slug: { kind: "text" },
  sku: { kind: "text" },
  model: { kind: "text" },
  price: { kind: "money" },
  compare_at_price: { kind: "money" },
  price_from: { kind: "money" },
  amount: { kind: "money" },
  refunded: { kind: "money", own: true },
  refund_status: { kind: "late_refund", own: true },
  stock: { kind: "number" },
  delta: { kind: "signed" },
  reason: { kind: "inventory_reason" },
  note: { kind: "text" },
  carrier: { kind: "text" },
  tracking_number: { kind: "text" },
  discount_type: { kind: "discount_type" },
  value: { kind: "promo_value" },
  max_discount: { kind: "money" },
  min_order: { kind: "money" },
  starts_at: { kind: "moment" },
  ends_at: { kind: "moment" },
  usage_limit: { kind: "number" },
  per_user_limit: { kind: "number" },
  max_per_order: { kind: "number" },
  low_stock_threshold: { kind: "number" },
  is_featured: { kind: "yes_no" },
  is_new: { kind: "yes_no" },
  category_id: { kind: "text" },
  brand_id: { kind: "text" },
  parent_id: { kind: "text" },
  icon: { kind: "text" },
  sort_order: { kind: "number" },
  images: { kind: "list" },
  summary_en: { kind: "text" },
  summary_ar: { kind: "text" },
  excerpt_en: { kind: "text" },
  excerpt_ar: { kind: "text" },
  description_en: { kind: "text" },
  description_ar: { kind: "text" },
  body_en: { kind: "text" },
  body_ar: { kind: "text" },
  features_en: { kind: "list" },
  features_ar: { kind: "list" },
  specs_en: { kind: "list" },
  specs_ar: { kind: "list" },
  content_type: { kind: "text", own: true },
  size: { kind: "number", own: true },
  width: { kind: "number", own: true },
  height: { kind: "number", own: true },
  seo_title_en: { kind: "text", own: true },
  seo_title_ar: { kind: "text", own: true },
  seo_description_en: { kind: "text", own: true },
  seo_description_ar: { kind: "text", own: true },
  weight_grams: { kind: "number", own: true },
  barcode: { kind: "text", own: true },
  standard: { kind: "money", own: true },
  express: { kind: "money", own: true },
  free_threshold: { kind: "money", own: true },
  vat_rate: { kind: "number", own: true },
  vat_number: { kind: "text", own: true },
  address_en: { kind: "text", own: true },
  address_ar: { kind: "text", own: true },
  logo_url: { kind: "text", own: true },
  window_days: { kind: "number", own: true },
  zones: { kind: "zones", own: true },
  orders: { kind: "yes_no", own: true },
  returns: { kind: "yes_no", own: true },
  reject_reason: { kind: "text", own: true },
  answer: { kind: "text", own: true },
  buyers_answer: { kind: "yes_no", own: true },
};

/** Technical ids a line may keep (a refund's, a payment's, a file's key): the record's name says enough. */
const HIDDEN = new Set(["refund_id", "late_payment", "payment_id", "key", "id", "updated_at"]);

/** Long texts (a description, a page's body) are cut: the log says what changed, the record page shows it whole. */
const TEXT_MAX = 80;

export interface AuditChange {
  field: string;
  /** The field's label in the reader's language. */
  label: string;
  /** The value before and after, as words; null where the line has no such side (a creation, a deletion). */
  before: string | null;
  after: string | null;
}

function fieldLabel(t: Translate, field: string): string {
  const known = FIELDS[field];
  if (!known) return field;
  return t(known.own ? `console.auditLog.fields.${field}` : `console.fields.${field}`);
}

function valueText(
  t: Translate,
  f: Format,
  entry: Pick<AuditEntry, "entity">,
  field: string,
  value: unknown,
  side: Record<string, unknown>,
): string {
  if (value === null || value === undefined || value === "") return t("console.auditLog.empty");
  const kind = FIELDS[field]?.kind ?? "text";
  const text = (v: unknown): string => {
    const s =
      typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : JSON.stringify(v);
    return s.length > TEXT_MAX ? `${s.slice(0, TEXT_MAX)}…` : s;
  };
  switch (kind) {
    case "money":
      return typeof value === "number" ? f.money(value) : text(value);
    case "promo_value":
      // A percentage code's value is a percentage, a fixed one's an amount of money.
      if (typeof value !== "number") return text(value);
      return side.discount_type === 2 ? f.money(value) : `${f.number(value)}%`;
    case "status": {
      if (typeof value !== "string") return text(value);
      if (entry.entity === "return") return t(`orders.returns.statuses.${value}`);
      if (entry.entity === "question" || entry.entity === "answer")
        return ["pending", "published", "rejected"].includes(value) ? t(`console.questions.statuses.${value}`) : value;
      const key = orderStatusKey(value);
      return key ? t(key) : value;
    }
    case "role":
      return ["owner", "manager", "support"].includes(String(value))
        ? t(`console.roles.${String(value)}`)
        : text(value);
    case "yes_no":
      return t(value ? "console.auditLog.yes" : "console.auditLog.no");
    case "discount_type":
      return value === 2 ? t("console.promoCodes.fixed") : t("console.promoCodes.percent");
    case "inventory_reason":
      return ["received", "damaged", "count", "other", "returned"].includes(String(value))
        ? t(`console.inventory.reasons.${String(value)}`)
        : text(value);
    case "late_refund":
      return ["owed", "pending", "refunded"].includes(String(value))
        ? t(`console.orders.lateStatuses.${String(value)}`)
        : text(value);
    case "moment":
      return typeof value === "string" ? f.moment(value) : text(value);
    case "number":
      return typeof value === "number" ? f.number(value) : text(value);
    case "signed":
      return typeof value === "number" ? `${value > 0 ? "+" : ""}${f.number(value)}` : text(value);
    case "list":
      if (Array.isArray(value))
        return text(
          value
            .map((v) => (typeof v === "string" ? (v.split("/").pop() ?? v) : text(v)))
            .join(t("console.auditLog.separator")),
        );
      if (typeof value === "object")
        return text(
          Object.entries(value as Record<string, unknown>)
            .map(([k, v]) => `${k}: ${text(v)}`)
            .join(t("console.auditLog.separator")),
        );
      return text(value);
    case "zones":
      return Array.isArray(value) ? zonesText(t, f, value) : text(value);
    default:
      return text(value);
  }
}

/** Shipping zones whole, one after the other: name, regions and rates (a zone is short; no cut). */
function zonesText(t: Translate, f: Format, zones: unknown[]): string {
  if (!zones.length) return t("console.shippingZones.audit.none");
  return zones
    .map((raw) => {
      const z = record(raw) ?? {};
      const name = String((f.locale === "ar" ? z.name_ar : z.name_en) ?? "");
      const regions = (Array.isArray(z.regions) ? z.regions : [])
        .map((r) => (typeof r === "string" && r in REGIONS ? REGIONS[r as RegionId][f.locale] : String(r)))
        .join(t("console.auditLog.separator"));
      const money = (v: unknown) => (typeof v === "number" ? f.money(v) : String(v));
      return t("console.shippingZones.audit.zone", {
        name,
        regions,
        standard: money(z.standard),
        express: money(z.express),
        free: money(z.free_threshold),
      });
    })
    .join(" · ");
}

const record = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/**
 * What a line changed, field by field: for an edit only the fields whose value differs, for a
 * creation or a deletion every field of the record as it was written.
 */
export function auditChanges(
  t: Translate,
  f: Format,
  entry: Pick<AuditEntry, "entity" | "before" | "after">,
): AuditChange[] {
  const before = record(entry.before);
  let after = record(entry.after);
  // A stock adjustment keeps the stock before and the change: the stock after is their sum.
  if (typeof before?.stock === "number" && typeof after?.delta === "number" && !("stock" in after))
    after = { stock: before.stock + after.delta, ...after };
  const fields = [...new Set([...Object.keys(after ?? {}), ...Object.keys(before ?? {})])]
    .filter((k) => !HIDDEN.has(k))
    .sort((a, b) => order(a) - order(b));
  const changes: AuditChange[] = [];
  for (const field of fields) {
    const was = before?.[field];
    const now = after?.[field];
    if (before && after && JSON.stringify(was ?? null) === JSON.stringify(now ?? null)) continue;
    changes.push({
      field,
      label: fieldLabel(t, field),
      // A side that does not hold the field (a creation, a deletion, a line that keeps only one) has no value.
      before: before && field in before ? valueText(t, f, entry, field, was, before) : null,
      after: after && field in after ? valueText(t, f, entry, field, now, after) : null,
    });
  }
  return changes;
}

const FIELD_ORDER = Object.keys(FIELDS);
const order = (field: string) => {
  const i = FIELD_ORDER.indexOf(field);
  return i < 0 ? FIELD_ORDER.length : i;
};

/**
 * The operator console's contract: roles, the signed-in staff member, and the shape of
 * every console list (sorted and paged on the server). Imported by the storefront's console pages
 * and by the backend's /admin routes.
 */

/** Staff roles, weakest first: each role may do everything the ones before it may. */
export const STAFF_ROLES = ["support", "manager", "owner"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const roleRank = (role: StaffRole): number => STAFF_ROLES.indexOf(role);
export const roleAtLeast = (role: StaffRole, minimum: StaffRole): boolean => roleRank(role) >= roleRank(minimum);

/** GET /admin/session: who is at the console. `elevated` false: the one-time code is still due. */
export interface StaffMe {
  user_id: number;
  name: string;
  email: string;
  role: StaffRole;
  elevated: boolean;
  /** How this session was opened: the account plus a code, or Cloudflare Access. */
  via: "code" | "access" | null;
  /** When the console session ends (ISO), when elevated. */
  expires_at: string | null;
  /**
   * Why no code opens the console now: the account's email is not the one the seat was granted
   * for (an owner confirms it in Staff), or the password changed recently (until `frozen_until`).
   */
  locked: "email_changed" | "password_changed" | null;
  frozen_until: string | null;
}

export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** The `meta` of every console list: the page shown, and how it was sorted. */
export interface ConsoleListMeta {
  page: number;
  per_page: number;
  total: number;
  last_page: number;
  sort: string;
  dir: SortDirection;
}

/** Lists page at most this many rows; 25 unless the caller asks for another size. */
export const CONSOLE_PER_PAGE_MAX = 100;
export const CONSOLE_PER_PAGE_DEFAULT = 25;

/** A staff member, as the owner's staff page lists them. */
export interface StaffMember {
  user_id: number;
  name: string;
  /** The account's email now. */
  email: string;
  phone: string | null;
  /** The email the seat was granted for (the console code goes only to it). */
  staff_email: string | null;
  /** Whether the account's email is no longer `staff_email`: no console until an owner confirms it. */
  email_changed: boolean;
  /** Whether the account has verified its email. */
  verified: boolean;
  role: StaffRole;
  created_at: string;
  /** Emailed about each new paid order. */
  alert_orders: boolean;
  /** Emailed about each new return request. */
  alert_returns: boolean;
}

/**
 * Every action code the backend writes to the audit log (services/console/staff.ts `auditStatement`, the
 * product and CLI inserts): the console names each in the reader's language; a code not listed
 * (from a newer backend) shows as it came.
 */
export const AUDIT_ACTIONS = [
  "order.process",
  "order.ship",
  "order.deliver",
  "order.cancel",
  "order.refund",
  "order.refund_failed",
  "order.late_refund",
  "order.late_refund_failed",
  "order.message_resend",
  "order.transfer_sent",
  "order.shipment_create",
  "order.shipment_cancel",
  "order.debit_note",
  "return.approve",
  "return.reject",
  "return.receive",
  "return.refund",
  "product.create",
  "product.update",
  "product.attributes",
  "product.variants",
  "product.deactivate",
  "product.reactivate",
  "inventory.received",
  "inventory.damaged",
  "inventory.count",
  "inventory.other",
  "category.create",
  "category.update",
  "category.delete",
  "brand.create",
  "brand.update",
  "brand.delete",
  "service.create",
  "service.update",
  "service.delete",
  "page.create",
  "page.update",
  "page.delete",
  "promo.create",
  "promo.update",
  "promo.pause",
  "promo.resume",
  "media.upload",
  "staff.add",
  "staff.role",
  "staff.contact",
  "staff.remove",
  "staff.alerts",
  "staff.invite",
  "staff.invite_resend",
  "staff.invite_revoke",
  "staff.invite_accept",
  "product.duplicate",
  "product.bulk_edit",
  "note.add",
  "settings.update",
  "report.export_orders",
  "report.export_customers",
  "report.cod_statement",
  "einvoice.register",
  "einvoice.compliance",
  "einvoice.production",
  "einvoice.renew",
  "einvoice.resend",
  "question.approve",
  "question.reject",
  "question.remove",
  "question.answer",
  "answer.approve",
  "answer.reject",
  "answer.remove",
  "review.approve",
  "review.reject",
  "review.reply",
  "review.dismiss_reports",
  "customer.export",
  "customer.erase",
] as const;

/** The kinds of record an audit line is about (its `entity`). */
export const AUDIT_ENTITIES = [
  "order",
  "return",
  "product",
  "category",
  "brand",
  "service",
  "page",
  "promo_code",
  "media",
  "staff",
  "staff_invitation",
  "customer",
  "settings",
  "report",
  "einvoice",
  "question",
  "answer",
  "review",
] as const;

/**
 * The record an audit line is about, readable: `name` is what staff call it (an order's number, a
 * product's name in the reader's language, a promo code, a staff email; a return is named by its
 * order), null when the record is gone and the line does not say. `page` and `key` say which
 * console page shows it (an order's number; a return opens its order); null when none does.
 */
export interface AuditRecord {
  name: string | null;
  page: "order" | "product" | "category" | "brand" | "service" | "page" | "promo_code" | "staff" | null;
  key: string | null;
}

/** One line of the audit log (owners only). */
export interface AuditEntry {
  id: number;
  staff_email: string;
  action: string;
  entity: string;
  entity_id: string | null;
  before: unknown;
  after: unknown;
  created_at: string;
  record: AuditRecord;
}

/**
 * The fields of the console's forms, for the messages of their rules (contract/inputs.ts's
 * InputMessages names fields by these too): the edge words them in contract/server/console-fields.ts,
 * the console's forms from `console.fields` in locales/.
 */
export const CONSOLE_FIELDS = [
  "staff_code",
  "role",
  "slug",
  "sku",
  "model",
  "category_id",
  "brand_id",
  "parent_id",
  "name_en",
  "name_ar",
  "title_en",
  "title_ar",
  "summary_en",
  "summary_ar",
  "excerpt_en",
  "excerpt_ar",
  "description_en",
  "description_ar",
  "body_en",
  "body_ar",
  "features_en",
  "features_ar",
  "specs_en",
  "specs_ar",
  "price",
  "price_from",
  "compare_at_price",
  "stock",
  "max_per_order",
  "low_stock_threshold",
  "images",
  "icon",
  "sort_order",
  "is_featured",
  "is_new",
  "active",
  "carrier",
  "tracking_number",
  "reference",
  "amount",
  "reason",
  "note",
  "delta",
  "promo_code",
  "discount_type",
  "value",
  "max_discount",
  "starts_at",
  "ends_at",
  "min_order",
  "usage_limit",
  "per_user_limit",
  "file",
  "search",
  "status",
  "date_from",
  "date_to",
  "payment_status",
  "counted",
  "items",
  "seo_title_en",
  "seo_title_ar",
  "seo_description_en",
  "seo_description_ar",
  "weight_grams",
  "barcode",
  "attributes",
  "options",
  "variants",
  "product_ids",
  "percent",
  "lang",
  "parcels",
  "orders",
  "day",
  "label_size",
  "crn",
  "branch",
  "industry",
  "building_number",
] as const;
export type ConsoleField = (typeof CONSOLE_FIELDS)[number];

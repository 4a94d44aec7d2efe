import {
  CUSTOMER_ORDERS_SHOWN,
  type ConsoleCustomer,
  type ConsoleCustomerAddress,
  type ConsoleCustomerDetail,
  type ConsoleCustomerOrder,
} from "../../../../contract/console-customers";
import { normalizePhone } from "../../../../contract/inputs";
import type { StaffCaller } from "../../env";
import { notFound } from "../../http";
import { contains, pageOf, type ListQuery } from "./list";
import { maskEmail, presentedStatus, type StoredOrderStatus } from "../orders/orders";
import { maskPhone, seesContactData } from "./staff";
import { notesOf } from "./staff-notes";

/**
 * Customers in the console: shop accounts with their orders and saved addresses, and
 * guests (buyers without an account, one per email of their orders) with their orders.
 * Contact data is masked on the server for staff who may not see it (support), so a masked value
 * is all their browser ever receives.
 *
 * Search: managers and owners find a customer by any part of the name, email or phone, or by an
 * order number. Support finds by any part of the name, an exact order number, or an exact email or
 * phone number (the whole of it, case aside): the answer still comes masked, and no partial
 * search lets support spell out contact data a letter at a time.
 */

/** Orders that count as money spent: paid, or further along. */
export const PAID_OR_LATER = "('paid', 'processing', 'shipped', 'delivered')";

const SPENT = `SUM(CASE WHEN status IN ${PAID_OR_LATER} THEN total - refunded ELSE 0 END)`;

/**
 * Accounts and guests in one list. A guest is a buyer without an account, known by the email of
 * their orders (case aside): one row per email, named and reached by their latest order, with the
 * id `guest-<their first order's number>` (their email never goes in a link).
 */
const CUSTOMERS = `(
  SELECT u.id AS id, u.id AS user_id, u.name, u.email, u.phone, u.verified_at, u.created_at,
    COALESCE(o.orders_count, 0) AS orders_count, COALESCE(o.total_spent, 0) AS total_spent, o.last_order_at
  FROM users u LEFT JOIN (
    SELECT user_id, COUNT(*) AS orders_count, ${SPENT} AS total_spent, MAX(created_at) AS last_order_at
    FROM orders WHERE user_id IS NOT NULL GROUP BY user_id
  ) o ON o.user_id = u.id
  UNION ALL
  SELECT 'guest-' || f.number, NULL, COALESCE(json_extract(l.address, '$.name'), ''), g.email,
    COALESCE(l.phone, json_extract(l.address, '$.phone')), NULL, f.created_at, g.orders_count, g.total_spent, g.last_order_at
  FROM (
    SELECT lower(email) AS email, COUNT(*) AS orders_count, ${SPENT} AS total_spent, MAX(created_at) AS last_order_at,
      MIN(id) AS first_id, MAX(id) AS last_id
    FROM orders WHERE user_id IS NULL GROUP BY lower(email)
  ) g JOIN orders f ON f.id = g.first_id JOIN orders l ON l.id = g.last_id
) c`;

const SELECT =
  "c.id, c.user_id, c.name, c.email, c.phone, c.verified_at, c.created_at, c.orders_count, c.total_spent, c.last_order_at";
const FROM = `FROM ${CUSTOMERS}`;

/** The customers list's columns and joins, for the customers export (services/console/reports.ts). */
export const CUSTOMERS_SELECT = SELECT;
export const CUSTOMERS_FROM = FROM;

const SORTS = {
  created: "c.created_at",
  name: "c.name",
  email: "c.email",
  orders_count: "c.orders_count",
  total_spent: "c.total_spent",
  last_order_at: "c.last_order_at",
};

interface CustomerRow {
  id: number | string;
  user_id: number | null;
  name: string;
  email: string | null;
  phone: string | null;
  verified_at: string | null;
  created_at: string;
  orders_count: number;
  total_spent: number;
  last_order_at: string | null;
}

type Viewer = Pick<StaffCaller, "role">;

function present(row: CustomerRow, viewer: Viewer): ConsoleCustomer {
  const full = seesContactData(viewer);
  return {
    id: row.id,
    guest: row.user_id === null,
    name: row.name,
    email: row.email && !full ? maskEmail(row.email) : row.email,
    phone: full ? row.phone : maskPhone(row.phone),
    verified: row.verified_at !== null,
    created_at: row.created_at,
    orders_count: row.orders_count,
    total_spent: row.total_spent,
    last_order_at: row.last_order_at,
    masked: !full,
  };
}

/** The WHERE clause of a search, as the viewer's role allows it (see above); guests are found the same way. */
function searchClause(search: string, viewer: Viewer): { sql: string; binds: unknown[] } {
  const phone = normalizePhone(search);
  const byOrder = `EXISTS (SELECT 1 FROM orders bo WHERE bo.number = ? COLLATE NOCASE
    AND (bo.user_id = c.user_id OR (c.user_id IS NULL AND bo.user_id IS NULL AND lower(bo.email) = c.email)))`;
  if (seesContactData(viewer)) {
    const digits = phone.replace(/^\+/, "");
    const parts = [contains("c.name"), contains("c.email"), byOrder];
    const binds: unknown[] = [search, search, search];
    if (/^\d{3,}$/.test(digits)) {
      parts.push(contains("c.phone"));
      binds.push(digits);
    }
    return { sql: `(${parts.join(" OR ")})`, binds };
  }
  return {
    sql: `(${contains("c.name")} OR c.email = ? COLLATE NOCASE OR c.phone = ? OR ${byOrder})`,
    binds: [search, search, phone, search],
  };
}

export async function listCustomers(db: D1Database, viewer: Viewer, query: ListQuery & { search?: string }) {
  const where = query.search ? searchClause(query.search, viewer) : { sql: "", binds: [] };
  // Emails in order would tell support more than their masked form does: for support that sort is the default one.
  const sort = query.sort === "email" && !seesContactData(viewer) ? "created" : query.sort;
  const { rows, meta } = await pageOf<CustomerRow>(
    db,
    SELECT,
    `${FROM} ${where.sql ? `WHERE ${where.sql}` : ""}`,
    where.binds,
    { ...query, sort },
    SORTS,
  );
  return { rows: rows.map((r) => present(r, viewer)), meta };
}

interface AddressRow extends Omit<ConsoleCustomerAddress, "is_default"> {
  is_default: number;
}

/** What support sees of a saved address: the city and district, not where the door is nor how to call. */
function presentAddress(row: AddressRow, full: boolean): ConsoleCustomerAddress {
  const hidden = (value: string | null) => (value === null || value === "" ? value : "***");
  const address = { ...row, is_default: row.is_default === 1 };
  if (full) return address;
  return {
    ...address,
    phone: maskPhone(row.phone),
    street: "***",
    building: hidden(row.building),
    postal_code: hidden(row.postal_code),
    additional_number: hidden(row.additional_number ?? null),
    short_address: hidden(row.short_address ?? null),
    notes: hidden(row.notes),
  };
}

/** The email of a guest's customer id (`guest-<number of one of their orders>`), or null. */
async function guestEmail(db: D1Database, id: string): Promise<string | null> {
  const number = /^guest-(SQ-[A-Z0-9]{8})$/i.exec(id)?.[1];
  if (!number) return null;
  const row = await db
    .prepare("SELECT lower(email) AS email FROM orders WHERE number = ? COLLATE NOCASE AND user_id IS NULL")
    .bind(number)
    .first<{ email: string }>();
  return row?.email ?? null;
}

/** The notes subject of a customer id: `user:<id>`, or `guest:<email>`; null when there is no such customer. */
export async function customerSubject(db: D1Database, id: string): Promise<string | null> {
  if (/^[1-9]\d{0,15}$/.test(id)) return `user:${Number(id)}`;
  const email = await guestEmail(db, id);
  return email ? `guest:${email}` : null;
}

export async function customerDetail(db: D1Database, viewer: Viewer, id: string): Promise<ConsoleCustomerDetail> {
  const subject = await customerSubject(db, id);
  if (!subject) throw notFound();
  const guest = subject.startsWith("guest:") ? subject.slice("guest:".length) : null;
  const [customer, addresses, orders] = await db.batch([
    guest
      ? db.prepare(`SELECT ${SELECT} ${FROM} WHERE c.user_id IS NULL AND c.email = ?`).bind(guest)
      : db.prepare(`SELECT ${SELECT} ${FROM} WHERE c.user_id = ?`).bind(Number(id)),
    db
      .prepare(
        `SELECT id, label, name, phone, city, district, street, building, postal_code, additional_number, short_address, notes, is_default
         FROM addresses WHERE user_id = ? ORDER BY is_default DESC, id`,
      )
      .bind(guest ? 0 : Number(id)),
    db
      .prepare(
        `SELECT o.number, o.status, o.total, o.refunded, o.currency, o.created_at,
           (SELECT COALESCE(SUM(quantity), 0) FROM order_items i WHERE i.order_id = o.id) AS items
         FROM orders o WHERE ${guest ? "o.user_id IS NULL AND lower(o.email) = ?" : "o.user_id = ?"}
         ORDER BY o.created_at DESC, o.id DESC LIMIT ?`,
      )
      .bind(guest ?? Number(id), CUSTOMER_ORDERS_SHOWN),
  ]);
  const row = customer.results[0] as CustomerRow | undefined;
  if (!row) throw notFound();
  const full = seesContactData(viewer);
  return {
    ...present(row, viewer),
    addresses: (addresses.results as AddressRow[]).map((a) => presentAddress(a, full)),
    // The state every console list shows (services/orders/orders.ts `presentedStatus`), not the stored one.
    orders: (orders.results as ConsoleCustomerOrder[]).map((o) => ({
      ...o,
      status: presentedStatus({ ...o, status: o.status as StoredOrderStatus }),
    })),
    notes: await notesOf(db, subject),
  };
}

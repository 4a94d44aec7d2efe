import {
  CUSTOMER_ORDERS_SHOWN,
  type ConsoleCustomer,
  type ConsoleCustomerAddress,
  type ConsoleCustomerDetail,
  type ConsoleCustomerOrder,
} from "../../../contract/console-customers";
import { normalizePhone } from "../../../contract/inputs";
import type { StaffCaller } from "../env";
import { notFound } from "../http";
import { contains, pageOf, type ListQuery } from "./console-list";
import { maskEmail, presentedStatus, type StoredOrderStatus } from "./orders";
import { maskPhone, seesContactData } from "./staff";

/**
 * Customers in the console (issue 20): shop accounts with their orders and saved addresses.
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

const SELECT = `u.id, u.name, u.email, u.phone, u.verified_at, u.created_at,
  COALESCE(o.orders_count, 0) AS orders_count, COALESCE(o.total_spent, 0) AS total_spent, o.last_order_at`;

const FROM = `FROM users u LEFT JOIN (
  SELECT user_id, COUNT(*) AS orders_count,
    SUM(CASE WHEN status IN ${PAID_OR_LATER} THEN total - refunded ELSE 0 END) AS total_spent,
    MAX(created_at) AS last_order_at
  FROM orders WHERE user_id IS NOT NULL GROUP BY user_id
) o ON o.user_id = u.id`;

const SORTS = {
  created: "u.id",
  name: "u.name",
  email: "u.email",
  orders_count: "orders_count",
  total_spent: "total_spent",
  last_order_at: "last_order_at",
};

interface CustomerRow {
  id: number;
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

/** The WHERE clause of a search, as the viewer's role allows it (see above). */
function searchClause(search: string, viewer: Viewer): { sql: string; binds: unknown[] } {
  const phone = normalizePhone(search);
  const byOrder = "u.id IN (SELECT user_id FROM orders WHERE number = ? COLLATE NOCASE AND user_id IS NOT NULL)";
  if (seesContactData(viewer)) {
    const digits = phone.replace(/^\+/, "");
    const parts = [contains("u.name"), contains("u.email"), byOrder];
    const binds: unknown[] = [search, search, search];
    if (/^\d{3,}$/.test(digits)) {
      parts.push(contains("u.phone"));
      binds.push(digits);
    }
    return { sql: `(${parts.join(" OR ")})`, binds };
  }
  return {
    sql: `(${contains("u.name")} OR u.email = ? COLLATE NOCASE OR u.phone = ? OR ${byOrder})`,
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
    notes: hidden(row.notes),
  };
}

export async function customerDetail(db: D1Database, viewer: Viewer, id: number): Promise<ConsoleCustomerDetail> {
  const [customer, addresses, orders] = await db.batch([
    db.prepare(`SELECT ${SELECT} ${FROM} WHERE u.id = ?`).bind(id),
    db
      .prepare(
        `SELECT id, label, name, phone, city, district, street, building, postal_code, notes, is_default
         FROM addresses WHERE user_id = ? ORDER BY is_default DESC, id`,
      )
      .bind(id),
    db
      .prepare(
        `SELECT o.number, o.status, o.total, o.refunded, o.currency, o.created_at,
           (SELECT COALESCE(SUM(quantity), 0) FROM order_items i WHERE i.order_id = o.id) AS items
         FROM orders o WHERE o.user_id = ? ORDER BY o.created_at DESC, o.id DESC LIMIT ?`,
      )
      .bind(id, CUSTOMER_ORDERS_SHOWN),
  ]);
  const row = customer.results[0] as CustomerRow | undefined;
  if (!row) throw notFound();
  const full = seesContactData(viewer);
  return {
    ...present(row, viewer),
    addresses: (addresses.results as AddressRow[]).map((a) => presentAddress(a, full)),
    // The state every console list shows (services/orders.ts `presentedStatus`), not the stored one.
    orders: (orders.results as ConsoleCustomerOrder[]).map((o) => ({
      ...o,
      status: presentedStatus({ ...o, status: o.status as StoredOrderStatus }),
    })),
  };
}

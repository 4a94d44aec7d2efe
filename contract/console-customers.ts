/**
 * Customers in the operator console: shop accounts with their orders and addresses.
 * Support sees contact data masked; the backend decides (services/console/staff.ts `seesContactData`),
 * and `masked` says which form a record came in, so a page never guesses.
 */

/** The sort names of GET /admin/customers. */
import type { StaffNote } from "./console-orders";

export const CUSTOMER_SORTS = ["created", "name", "email", "orders_count", "total_spent", "last_order_at"] as const;

/** A customer in the list. */
export interface ConsoleCustomer {
  /** An account's id, or `guest-<order number>` for a guest (a buyer without an account, by the email of their orders). */
  id: number | string;
  guest: boolean;
  name: string;
  /** Masked for support: "s***@e***.com". */
  email: string | null;
  /** Masked for support: "+9665*****78". */
  phone: string | null;
  verified: boolean;
  created_at: string;
  orders_count: number;
  /** Paid-or-later orders, less what was refunded, in halalas. */
  total_spent: number;
  last_order_at: string | null;
  masked: boolean;
}

/**
 * A saved address; for support the street, the national address's codes (building, postal code,
 * additional number, short address: each finds the door), phone and notes are masked.
 */
export interface ConsoleCustomerAddress {
  id: number;
  label: string | null;
  name: string;
  phone: string | null;
  city: string;
  district: string;
  street: string;
  building: string | null;
  postal_code: string | null;
  additional_number?: string | null;
  short_address?: string | null;
  notes: string | null;
  is_default: boolean;
}

/** One of the customer's orders. */
export interface ConsoleCustomerOrder {
  number: string;
  status: string;
  total: number;
  refunded: number;
  currency: string;
  created_at: string;
  items: number;
}

/** GET /admin/customers/{id}. */
export interface ConsoleCustomerDetail extends ConsoleCustomer {
  addresses: ConsoleCustomerAddress[];
  /** The most recent orders (at most CUSTOMER_ORDERS_SHOWN; `orders_count` says how many in all). */
  orders: ConsoleCustomerOrder[];
  /** Staff's internal notes on the customer, oldest first. */
  notes: StaffNote[];
}

export const CUSTOMER_ORDERS_SHOWN = 50;

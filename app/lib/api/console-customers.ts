import type { ConsoleCustomer, ConsoleCustomerDetail } from "../../../contract/console-customers";
import type { Api } from "./client";
import type { ConsoleList, ListParams } from "./console";

/** Customers in the console; contact data arrives masked for support. */

export function listCustomers(api: Api, params: ListParams) {
  return api.get<ConsoleCustomer[]>("/admin/customers", { query: params }) as Promise<ConsoleList<ConsoleCustomer>>;
}

/** An account (its id) or a guest (`guest-<order number>`). */
export function getCustomer(api: Api, id: string) {
  return api.get<ConsoleCustomerDetail>(`/admin/customers/${encodeURIComponent(id)}`);
}

/** Adds an internal note to the customer (never shown to them). */
export function addCustomerNote(api: Api, id: string, body: string) {
  return api.post<ConsoleCustomerDetail>(`/admin/customers/${encodeURIComponent(id)}/notes`, { body });
}

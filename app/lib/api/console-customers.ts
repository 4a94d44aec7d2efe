import type { ConsoleCustomer, ConsoleCustomerDetail } from "../../../contract/console-customers";
import type { Api } from "./client";
import type { ConsoleList, ListParams } from "./console";

/** Customers in the console (issue 20); contact data arrives masked for support. */

export function listCustomers(api: Api, params: ListParams) {
  return api.get<ConsoleCustomer[]>("/admin/customers", { query: params }) as Promise<ConsoleList<ConsoleCustomer>>;
}

export function getCustomer(api: Api, id: number) {
  return api.get<ConsoleCustomerDetail>(`/admin/customers/${id}`);
}

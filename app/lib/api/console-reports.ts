import type { ConsoleReport } from "../../../contract/console-reports";
import type { Api } from "./client";
import { fileCall } from "./console-catalogue";

/** The console's reports (owners and managers): a period's sales, refunds and VAT, and the CSV exports. */
export function getReport(api: Api, period: { from: string; to: string }) {
  return api.get<ConsoleReport>("/admin/reports", { query: period });
}

/** GET /admin/reports/orders.csv: the orders placed in the period, as the file to save. */
export async function exportOrders(api: Api, base: string, period: { from: string; to: string }): Promise<Blob> {
  const query = new URLSearchParams(period).toString();
  return (await fileCall(api, base, "GET", `/admin/reports/orders.csv?${query}`)).blob();
}

/** GET /admin/reports/customers.csv: every customer account, as the file to save. */
export async function exportCustomers(api: Api, base: string): Promise<Blob> {
  return (await fileCall(api, base, "GET", "/admin/reports/customers.csv")).blob();
}

import type { ConsoleList, ListParams } from "./console";
import {
  STOCK_ALERTS_PATHS,
  type StockAlertAnswer,
  type StockAlertDemand,
  type StockAlertRequest,
} from "../../../contract/stock-alerts";
import type { Api } from "./client";

/**
 * Back-in-stock alerts: the shopper's "tell me when it's back" and the console's waiting demand.
 * Failures are the client's `ApiError` (409: in stock now; 422: field errors; 429: too many).
 */

/** POST /stock-alerts: subscribes, or sends the phone a code first (`code_sent`). */
export function subscribeToStockAlert(api: Api, body: StockAlertRequest) {
  return api.post<StockAlertAnswer>(STOCK_ALERTS_PATHS.subscribe, body);
}

/** GET /admin/inventory/stock-alerts: per variant, the subscriptions waiting (managers and owners). */
export function listStockAlertDemand(api: Api, params: ListParams & { product_id?: number } = {}) {
  return api.get<StockAlertDemand[]>(STOCK_ALERTS_PATHS.demand, { query: params }) as Promise<
    ConsoleList<StockAlertDemand>
  >;
}

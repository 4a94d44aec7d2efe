import type { ConsoleReturn, ReturnAction } from "../../../contract/returns";
import type { Api } from "./client";

/** Returns in the console: an order's returns and the steps staff run on one. */

const path = (number: string, rest = "") => `/admin/orders/${encodeURIComponent(number)}/returns${rest}`;

export function listOrderReturns(api: Api, number: string) {
  return api.get<ConsoleReturn[]>(path(number));
}

/** approve, receive (the stock comes back), refund (through the provider), or reject with a note. */
export function runReturnAction(
  api: Api,
  number: string,
  id: string,
  action: ReturnAction,
  note: string | null = null,
) {
  return api.post<ConsoleReturn[]>(
    path(number, `/${encodeURIComponent(id)}/${action}`),
    action === "reject" ? { note } : undefined,
  );
}

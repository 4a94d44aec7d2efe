import type { ConsolePromo, PromoCodeInput } from "../../../contract/console-promos";
import type { Api } from "./client";
import type { ConsoleList, ListParams } from "./console";

/** Promo codes in the console: managers and owners. */

export function listPromoCodes(api: Api, params: ListParams) {
  return api.get<ConsolePromo[]>("/admin/promo-codes", { query: params }) as Promise<ConsoleList<ConsolePromo>>;
}

export function getPromoCode(api: Api, id: number) {
  return api.get<ConsolePromo>(`/admin/promo-codes/${id}`);
}

export function createPromoCode(api: Api, input: PromoCodeInput) {
  return api.post<ConsolePromo>("/admin/promo-codes", input);
}

export function updatePromoCode(api: Api, id: number, input: PromoCodeInput) {
  return api.put<ConsolePromo>(`/admin/promo-codes/${id}`, input);
}

/** Pauses a code: checkout refuses it until it is resumed. */
export function pausePromoCode(api: Api, id: number) {
  return api.post<ConsolePromo>(`/admin/promo-codes/${id}/pause`);
}

export function resumePromoCode(api: Api, id: number) {
  return api.post<ConsolePromo>(`/admin/promo-codes/${id}/resume`);
}

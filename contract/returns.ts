/**
 * Returns and the shopper's self-service on an order: the return a shopper requests per
 * line with a reason, its states as staff decide, receive and refund it, and the inputs of
 * POST /orders/{number}/returns and of the console's return actions. Imported by the order page,
 * the console's order page and the backend's routes. Part of the contract: imports only valibot.
 */
import * as v from "valibot";
import { saudiIban, type InputMessages } from "./inputs";
import { LIMITS } from "./limits";

/** requested → approved | rejected; approved → received → refunded. */
export const RETURN_STATUSES = ["requested", "approved", "rejected", "received", "refunded"] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export const RETURN_REASONS = ["damaged", "wrong_item", "not_as_described", "changed_mind", "other"] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

/** What staff can do next with a return; the console offers exactly these, the API accepts only these. */
export const RETURN_ACTIONS = ["approve", "reject", "receive", "refund"] as const;
export type ReturnAction = (typeof RETURN_ACTIONS)[number];

export const RETURN_NOTE_MAX = 500;

export interface ReturnLine {
  product_id: number;
  variant_id?: number;
  name: string;
  quantity: number;
  reason: ReturnReason;
  note: string | null;
  /** The returned quantity at the price paid, in minor units. */
  amount: number;
}

/** A return as the shopper's order page and the console show it. */
export interface OrderReturn {
  id: string;
  status: ReturnStatus;
  /** What the returned lines cost, in minor units: the refund staff make. */
  amount: number;
  items: ReturnLine[];
  created_at: string;
  decided_at: string | null;
  received_at: string | null;
  refunded_at: string | null;
  /** The refund (refunds.id) that paid this return back. */
  refund_id: string | null;
  /** Why staff refused it, when they did: the shopper reads it too. */
  decision_note: string | null;
}

/** A return in the console: who decided and what staff may do next with it. */
export interface ConsoleReturn extends OrderReturn {
  decided_by: string | null;
  actions: ReturnAction[];
}

/** A refund as the shopper sees it on the order page. */
export interface OrderRefund {
  id: string;
  amount: number;
  status: "pending" | "succeeded" | "failed";
  created_at: string;
}

/** What the order page offers its owner (added to the order answer, contract/orders.ts). */
export interface OrderSelfService {
  /** True while the order has not shipped (pending_payment, paid, processing). */
  can_cancel: boolean;
  /** The end of the return window (delivered_at + RETURN_WINDOW_DAYS); null before delivery. */
  returnable_until: string | null;
  /** True when a return can be requested now: delivered, within the window, something left to return. */
  can_return: boolean;
  /** Per line, by variant id: how many may still be returned (bought less what non-rejected returns claim). */
  returnable: Record<number, number>;
  refunds: OrderRefund[];
  returns: OrderReturn[];
  /** Where the items of an approved return go (the seller's name and address); null when not configured. */
  send_to: string | null;
}

/** One line of a return request: quantity 0 leaves the line out; a returned line needs a reason. */
export function returnLineFields(m: InputMessages) {
  return {
    quantity: v.pipe(
      v.union(
        [v.number(), v.pipe(v.string(), v.trim(), v.nonEmpty(m.required("quantity")), v.toNumber())],
        m.invalid("quantity"),
      ),
      v.integer(m.invalid("quantity")),
      v.minValue(0, m.invalid("quantity")),
      v.maxValue(LIMITS.quantity, m.invalid("quantity")),
    ),
    reason: v.optional(
      v.pipe(
        v.string(m.invalid("reason")),
        v.transform((s) => s || undefined),
        v.optional(v.picklist(RETURN_REASONS, m.invalid("reason"))),
      ),
    ),
    note: v.optional(
      v.nullable(
        v.pipe(
          v.string(m.invalid("note")),
          v.trim(),
          v.maxLength(RETURN_NOTE_MAX, m.maxLength("note", RETURN_NOTE_MAX)),
          v.transform((s) => (s === "" ? null : s)),
        ),
      ),
      null,
    ),
  };
}

/** The bank account a cash-on-delivery refund is transferred to. */
export function refundAccountInput(m: InputMessages) {
  return v.object({
    iban: v.pipe(
      v.string(m.required("iban")),
      v.trim(),
      v.nonEmpty(m.required("iban")),
      v.check((s) => saudiIban(s) !== null, m.invalid("iban")),
      v.transform((s) => saudiIban(s)!),
    ),
    name: v.pipe(
      v.string(m.required("iban_name")),
      v.trim(),
      v.nonEmpty(m.required("iban_name")),
      v.maxLength(LIMITS.name, m.maxLength("iban_name", LIMITS.name)),
    ),
  });
}

/** POST /orders/{number}/returns: every line of the order may be listed, at least one with a quantity. */
export function returnRequestInput(m: InputMessages) {
  const line = v.pipe(
    v.object({
      product_id: v.pipe(v.number(m.required("product_id")), v.integer(m.invalid("product_id"))),
      /** The line's variant; may be left out when the order holds one line of the product. */
      variant_id: v.optional(v.pipe(v.number(m.invalid("variant_id")), v.integer(m.invalid("variant_id")))),
      ...returnLineFields(m),
    }),
    v.forward(
      v.check((l) => l.quantity === 0 || l.reason !== undefined, m.required("reason")),
      ["reason"],
    ),
  );
  return v.object({
    /** Where the refund of a cash-on-delivery order goes: a Saudi IBAN and its holder (contract/inputs.ts `saudiIban`). */
    refund_account: v.optional(refundAccountInput(m)),
    items: v.pipe(
      v.array(line, m.required("items")),
      v.maxLength(100, m.invalid("items")),
      v.check((ls) => ls.some((l) => l.quantity > 0), m.required("items")),
      v.check(
        (ls) => new Set(ls.map((l) => `${l.product_id}:${l.variant_id ?? ""}`)).size === ls.length,
        m.invalid("items"),
      ),
    ),
  });
}

/** POST /admin/orders/{number}/returns/{id}/reject: why, optionally (kept with the decision). */
export function returnDecisionInput(m: InputMessages) {
  return v.object({
    note: returnLineFields(m).note,
  });
}

export type ReturnRequestInput = v.InferOutput<ReturnType<typeof returnRequestInput>>;

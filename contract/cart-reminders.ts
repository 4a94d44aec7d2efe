// Reminders about a cart left at checkout: the shopper's yes (asked apart from the purchase), the
// link that brings the cart back, and what the console reports. Part of the contract between the
// storefront and the backend: both sides import it, and it imports only valibot and the contract.
import * as v from "valibot";
import { E164, emailField, latinDigits, type InputMessages } from "./inputs";

/**
 * POST: the visitor's cart's contact and their answer. A guest gives an email (or, without one,
 * the delivery address's phone); a signed-in shopper's answer is their account's and the reminder
 * goes to the account's address, so what they send besides `consent` is not read.
 */
export const CART_CONTACT_PATH = "/cart/contact";

/** POST { token }: the reminded cart's lines into the visitor's own cart → CartRestored. */
export const CART_RESTORE_PATH = "/cart/restore";

/** The restore link's token: 256 random bits, hex. Only its SHA-256 is stored. */
export const RESTORE_TOKEN = /^[0-9a-f]{64}$/;

/** The storefront's page a reminder links to: `/{locale}/cart/restore/{token}`. */
export const restorePath = (locale: "en" | "ar", token: string) => `/${locale}/cart/restore/${token}`;

/** Days after a reminder was sent in which an order from its cart counts as brought back by it. */
export const RECOVERY_DAYS = 7;

/** POST CART_CONTACT_PATH's body: an email or a phone (E.164), and the answer. */
export function cartContactInput(m: InputMessages) {
  return v.object({
    email: v.optional(v.union([v.literal(""), emailField(m)], m.invalid("email")), ""),
    phone: v.optional(
      v.pipe(
        v.string(m.invalid("phone")),
        v.transform((s) => latinDigits(s).replace(/[\s-]/g, "")),
        v.check((s) => s === "" || E164.test(s), m.invalid("phone")),
      ),
      "",
    ),
    consent: v.boolean(m.invalid("consent")),
  });
}
export type CartContactInput = v.InferOutput<ReturnType<typeof cartContactInput>>;

/** The answer of CART_CONTACT_PATH: whether reminders are now on for this cart. */
export interface CartContactAnswer {
  consent: boolean;
}

/** POST CART_RESTORE_PATH's body. */
export function cartRestoreInput(m: InputMessages) {
  return v.object({
    token: v.pipe(v.string(m.required("token")), v.trim(), v.regex(RESTORE_TOKEN, m.invalid("token"))),
  });
}

/** What a restore brought back, and what it could not: said, never dropped silently. */
export interface CartRestored {
  /** Lines now in the visitor's cart from the reminded one. */
  restored: number;
  /** Products with fewer than the cart had: only that many are left, or allowed. */
  reduced: string[];
  /** Products no longer sold or out of stock: left out. */
  unavailable: string[];
  /** The promo code now on the cart (the operator's offer, else the cart's own), or null. */
  promo_code: string | null;
}

/** The console report's section: reminders sent, and the orders they brought back, in the period. */
export interface CartRemindersReport {
  /** Reminders sent (email or SMS) in the period. */
  sent: number;
  /** Orders placed in the period from a reminded cart within RECOVERY_DAYS of its reminder (not cancelled). */
  recovered: number;
  /** Those orders' totals, halalas. */
  revenue: number;
}

// Consent to messages beyond an order's own news, asked apart from the purchase and kept with
// the wording the shopper saw. Part of the contract between the storefront and the backend: both
// sides import it, and it imports only valibot.
import * as v from "valibot";
import type { InputMessages } from "./inputs";

/**
 * What a shopper may agree to: news and offers (`marketing`), and a reminder about a cart they
 * left (`cart_reminders`). Neither is needed to buy; each is withdrawn on its own.
 */
export const CONSENT_PURPOSES = ["marketing", "cart_reminders"] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];

/**
 * The version of each purpose's wording. The text itself is the backend catalogue's
 * `consents.<purpose>.<version>` and the storefront's `consents.<purpose>` (a test keeps them
 * equal); a new wording is a new version, so a record always names the text that was agreed to.
 */
export const CONSENT_WORDING: Record<ConsentPurpose, string> = { marketing: "v1", cart_reminders: "v1" };

/** Where a decision was made. */
export const CONSENT_SOURCES = ["profile", "register", "checkout", "link", "console"] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

/** GET: the signed-in shopper's current answers and their history; POST: give or withdraw one. */
export const CONSENTS_PATH = "/client/consents";

/** One decision, as recorded. */
export interface ConsentRecord {
  purpose: ConsentPurpose;
  granted: boolean;
  /** The exact text the shopper was shown, in the language they saw it in. */
  wording: string;
  wording_version: string;
  lang: "en" | "ar";
  source: ConsentSource;
  created_at: string;
}

/** Each purpose's current answer (false when never asked) and every decision, newest first. */
export interface ConsentState {
  current: Record<ConsentPurpose, boolean>;
  history: ConsentRecord[];
}

/** POST CONSENTS_PATH's body. */
export function consentInput(m: InputMessages) {
  return v.object({
    purpose: v.picklist(CONSENT_PURPOSES, m.invalid("purpose")),
    granted: v.boolean(m.invalid("granted")),
  });
}

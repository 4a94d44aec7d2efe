import type { Lang } from "../../env";
import { msg, type MessageKey } from "../../messages";
import { ORDER_MESSAGE_KINDS, type OrderMessageKind } from "./types";

/**
 * The WhatsApp message templates the shop sends, as data. WhatsApp lets a business start a
 * conversation only with a template Meta approved beforehand (its name, category, language and
 * body with numbered variables `{{1}}`, `{{2}}`...), so every one listed here must be submitted in
 * WhatsApp Manager under exactly this name, in both languages, with the body of the backend's
 * message catalogue (`whatsapp.templates.<name>` in worker/backend/messages/{en,ar}.json).
 * docs/OPERATIONS.md, "WhatsApp", lists them for the operator.
 *
 * `variables` are the body's `{{1}}`, `{{2}}`... in order, each named by the value of the order
 * message it carries (services/messages/notifications.ts builds them for the SMS and the email
 * too). test/unit-node/whatsapp.test.ts holds each body, in both languages, to exactly that many
 * variables, numbered from 1, none at the start or end of a UTILITY body (Meta refuses those).
 */

/** A value a template's variable carries: the order message's parameters (notifications.ts), or the code. */
export type WhatsAppVariable =
  | "number"
  | "total"
  | "amount"
  | "until"
  | "carrier"
  | "tracking"
  | "returnUntil"
  | "orderUrl"
  | "reason"
  | "sendTo"
  | "code";

export type WhatsAppCategory = "UTILITY" | "AUTHENTICATION";

export interface WhatsAppTemplate {
  /** The template's name in WhatsApp Manager (lower case, digits and underscores). */
  name: string;
  category: WhatsAppCategory;
  /** The languages it is submitted in: WhatsApp's codes, which are the shop's own here. */
  languages: readonly Lang[];
  /** `{{1}}`, `{{2}}`...: what each carries, in order. */
  variables: readonly WhatsAppVariable[];
  /**
   * An AUTHENTICATION template's copy-code button: WhatsApp requires one (its text is set at
   * submission; the send repeats the code as the button's parameter).
   */
  copyCodeButton?: true;
}

const LANGS = ["en", "ar"] as const;
const utility = (name: string, ...variables: WhatsAppVariable[]): WhatsAppTemplate => ({
  name,
  category: "UTILITY",
  languages: LANGS,
  variables,
});

/** Every order message kind's template (types.ts ORDER_MESSAGE_KINDS). */
export const ORDER_TEMPLATES: Record<OrderMessageKind, WhatsAppTemplate> = {
  placed: utility("souq_order_placed", "number", "total", "until", "orderUrl"),
  // A cash-on-delivery order's confirmation says the same: confirmed, for its total.
  paid: utility("souq_order_paid", "number", "total"),
  shipped: utility("souq_order_shipped", "number", "carrier", "tracking"),
  out_for_delivery: utility("souq_order_out_for_delivery", "number"),
  delivery_attempted: utility("souq_order_delivery_attempted", "number", "orderUrl"),
  delivered: utility("souq_order_delivered", "number", "returnUntil"),
  // Expired holds and unpaid cancellations too: the body says a refund follows only if paid.
  cancelled: utility("souq_order_cancelled", "number"),
  refunded: utility("souq_order_refunded", "number", "amount"),
  return_received: utility("souq_return_received", "number"),
  return_requested: utility("souq_return_requested", "number"),
  return_approved: utility("souq_return_approved", "number", "sendTo"),
  return_rejected: utility("souq_return_rejected", "number", "reason"),
};

/** Sign-in, verification and reset codes: WhatsApp's copy-code AUTHENTICATION template. */
export const CODE_TEMPLATE: WhatsAppTemplate = {
  name: "souq_code",
  category: "AUTHENTICATION",
  languages: LANGS,
  variables: ["code"],
  copyCodeButton: true,
};

/** Every template the shop sends, by name. */
export const WHATSAPP_TEMPLATES: readonly WhatsAppTemplate[] = [
  ...ORDER_MESSAGE_KINDS.map((kind) => ORDER_TEMPLATES[kind]),
  CODE_TEMPLATE,
];

export function templateNamed(name: string): WhatsAppTemplate | undefined {
  return WHATSAPP_TEMPLATES.find((t) => t.name === name);
}

/** The template's body in a language, as submitted to Meta (`{{1}}` placeholders). */
export function templateBody(template: WhatsAppTemplate, lang: Lang): string {
  return msg(`whatsapp.templates.${template.name}` as MessageKey)[lang];
}

/** The body with its variables filled: what the shopper reads (the stand-in records it). */
export function renderTemplate(template: WhatsAppTemplate, lang: Lang, values: readonly string[]): string {
  return templateBody(template, lang).replace(/\{\{(\d+)\}\}/g, (whole, n: string) => values[Number(n) - 1] ?? whole);
}

/** The `{{n}}` numbers a body uses, sorted and without repeats. */
export function bodyVariables(body: string): number[] {
  return [...new Set([...body.matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
}

import type { Env, Lang } from "../../env";
import { deliveryE164 } from "../../../../contract/delivery";
import { outboxReadable, maskRecipient } from "./messenger";
import type { WhatsAppTemplate } from "./whatsapp-templates";
import { CODE_TEMPLATE } from "./whatsapp-templates";
import { whatsappStandIn } from "./whatsapp-stand-in";
import { WHATSAPP_STAND_IN } from "./whatsapp-keys";

export { sameVerifyToken, verifyWhatsAppSignature, whatsappAppSecret, whatsappVerifyToken } from "./whatsapp-keys";

/**
 * WhatsApp through the WhatsApp Business Cloud API (Meta's Graph API): the shop's phone messages
 * to a shopper who chose WhatsApp (order messages, and their codes), sent as approved TEMPLATE
 * messages (whatsapp-templates.ts), the only kind a business may send first.
 *
 * The request, as Meta documents "Send message templates":
 *   POST {WHATSAPP_API_URL}/{version}/{WHATSAPP_PHONE_NUMBER_ID}/messages
 *   Authorization: Bearer {WHATSAPP_TOKEN}
 *   { messaging_product: "whatsapp", recipient_type: "individual", to, type: "template",
 *     template: { name, language: { code }, components: [{ type: "body", parameters: [{ type: "text", text }] }] } }
 * An AUTHENTICATION template repeats its code as the parameter of its copy-code button
 * (`{ type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: code }] }`).
 * The answer: `{ messaging_product, contacts: [{ input, wa_id }], messages: [{ id: "wamid…" }] }`,
 * or an error `{ error: { message, type, code, error_subcode?, error_data?, fbtrace_id } }`.
 * test/fixtures/whatsapp/ holds Meta's examples; test/unit-node/whatsapp.test.ts reads them.
 *
 * Accepted is not delivered: Meta reports each message's fate later to the status webhook
 * (whatsapp-webhook.ts), which is where a failure turns the message into an SMS.
 *
 * Configuration: `WHATSAPP=cloud` turns it on; WHATSAPP_API_URL (default
 * https://graph.facebook.com), WHATSAPP_PHONE_NUMBER_ID and the secret WHATSAPP_TOKEN. In
 * development and test, with WHATSAPP_API_URL unset or at the shop's own `/backend/dev/whatsapp`,
 * the same adapter speaks to the offline stand-in (whatsapp-stand-in.ts) in-process, with its
 * development credentials.
 */

/** The Graph API version the requests name. */
export const WHATSAPP_API_VERSION = "v21.0";
export const WHATSAPP_DEFAULT_API_URL = "https://graph.facebook.com";

export type WhatsAppEnv = Pick<
  Env,
  | "ENVIRONMENT"
  | "WHATSAPP"
  | "WHATSAPP_API_URL"
  | "WHATSAPP_PHONE_NUMBER_ID"
  | "WHATSAPP_TOKEN"
  | "WHATSAPP_APP_SECRET"
  | "DB"
  | "KV"
  | "NOTIFICATIONS"
>;

export interface WhatsAppConfig {
  /** The API base, without a trailing slash. */
  apiUrl: string;
  phoneNumberId: string;
  token: string;
  fetcher: (request: Request) => Promise<Response>;
}

/** One element of a template's `components`. */
export type TemplateComponent =
  | { type: "body"; parameters: { type: "text"; text: string }[] }
  | { type: "button"; sub_type: "url"; index: string; parameters: { type: "text"; text: string }[] };

/** The documented body of a template message. */
export interface TemplateMessageRequest {
  messaging_product: "whatsapp";
  recipient_type: "individual";
  to: string;
  type: "template";
  template: { name: string; language: { code: string }; components: TemplateComponent[] };
}

/** Meta's error object (Graph API errors). */
export interface GraphError {
  message: string;
  type?: string;
  code: number;
  error_subcode?: number;
  error_data?: { messaging_product?: string; details?: string };
  fbtrace_id?: string;
}

/** A send WhatsApp refused (its error answer), or that never got an answer (`code` 0). */
export class WhatsAppSendError extends Error {
  constructor(
    readonly status: number,
    readonly error: GraphError,
  ) {
    super(`WhatsApp answered ${status}: (#${error.code}) ${error.message}`);
    this.name = "WhatsAppSendError";
  }
}

/** Whether WhatsApp is on: WHATSAPP=cloud. */
export const whatsappOn = (env: Pick<Env, "WHATSAPP">) => (env.WHATSAPP ?? "").trim().toLowerCase() === "cloud";

/** Whether development or test should use the in-process stand-in (no URL, or the shop's own dev route). */
function usesStandIn(env: Pick<Env, "ENVIRONMENT" | "WHATSAPP_API_URL">): boolean {
  if (!outboxReadable(env)) return false;
  const url = (env.WHATSAPP_API_URL ?? "").trim();
  if (!url) return true;
  try {
    return new URL(url).pathname.replace(/\/+$/, "").endsWith(WHATSAPP_STAND_IN.path);
  } catch {
    return false;
  }
}

/**
 * The adapter's configuration, or null when WhatsApp is off or (outside development and test)
 * incomplete; the log says which setting is missing.
 */
export function whatsappConfig(env: WhatsAppEnv): WhatsAppConfig | null {
  if (!whatsappOn(env)) return null;
  if (usesStandIn(env))
    return {
      apiUrl: WHATSAPP_STAND_IN.base,
      phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID?.trim() || WHATSAPP_STAND_IN.phoneNumberId,
      token: env.WHATSAPP_TOKEN?.trim() || WHATSAPP_STAND_IN.token,
      fetcher: whatsappStandIn(env),
    };
  const phoneNumberId = env.WHATSAPP_PHONE_NUMBER_ID?.trim() ?? "";
  const token = env.WHATSAPP_TOKEN?.trim() ?? "";
  if (!phoneNumberId || !token) {
    console.warn(
      JSON.stringify({
        level: "warn",
        event: "whatsapp.not_configured",
        missing: [!phoneNumberId && "WHATSAPP_PHONE_NUMBER_ID", !token && "WHATSAPP_TOKEN"].filter(Boolean),
      }),
    );
    return null;
  }
  return {
    apiUrl: (env.WHATSAPP_API_URL?.trim() || WHATSAPP_DEFAULT_API_URL).replace(/\/+$/, ""),
    phoneNumberId,
    token,
    fetcher: (request) => fetch(request),
  };
}

/**
 * A stored phone as WhatsApp's `to`: the international number in digits, without `+` or `00`
 * (`966512345678`). Null for a number of a country the shop does not deliver to.
 */
export function whatsappNumber(phone: string): string | null {
  return deliveryE164(phone)?.slice(1) ?? null;
}

/**
 * A variable's text as WhatsApp takes it: no new lines or tabs, and never more than three spaces
 * in a row (Meta refuses those with error 132018); an empty value would be refused too, so it is a dash.
 */
export function parameterText(value: string): string {
  const text = value
    .replace(/\s*[\r\n\t]+\s*/g, ", ")
    .replace(/ {2,}/g, " ")
    .trim();
  return text || "-";
}

/** The documented request body for one template message. */
export function templateMessage(
  to: string,
  template: WhatsAppTemplate,
  lang: Lang,
  values: readonly string[],
): TemplateMessageRequest {
  if (values.length !== template.variables.length)
    throw new Error(`Template ${template.name} takes ${template.variables.length} variables, given ${values.length}.`);
  const text = values.map((value) => ({ type: "text" as const, text: parameterText(value) }));
  const components: TemplateComponent[] = [{ type: "body", parameters: text }];
  if (template.copyCodeButton) components.push({ type: "button", sub_type: "url", index: "0", parameters: [text[0]!] });
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to,
    type: "template",
    template: { name: template.name, language: { code: lang }, components },
  };
}

/** What a send answered: the message id (`wamid.…`) and the WhatsApp id of the recipient. */
export interface SentMessage {
  wamid: string;
  waId: string | null;
}

/**
 * Reads the answer to a send: the documented success shape, or the error shape as a
 * WhatsAppSendError (thrown). An answer of neither shape is an error too (code 0).
 */
export function readSendAnswer(status: number, body: unknown): SentMessage {
  const answer = (body ?? {}) as {
    messages?: { id?: unknown }[];
    contacts?: { wa_id?: unknown }[];
    error?: Partial<GraphError>;
  };
  if (status >= 200 && status < 300 && typeof answer.messages?.[0]?.id === "string")
    return {
      wamid: answer.messages[0].id,
      waId: typeof answer.contacts?.[0]?.wa_id === "string" ? answer.contacts[0].wa_id : null,
    };
  const e = answer.error;
  throw new WhatsAppSendError(status, {
    message: typeof e?.message === "string" ? e.message : `unreadable answer (${status})`,
    type: typeof e?.type === "string" ? e.type : undefined,
    code: typeof e?.code === "number" ? e.code : 0,
    error_subcode: typeof e?.error_subcode === "number" ? e.error_subcode : undefined,
    error_data: e?.error_data,
    fbtrace_id: typeof e?.fbtrace_id === "string" ? e.fbtrace_id : undefined,
  });
}

/** Sends one template message; throws WhatsAppSendError on an error answer or no answer. */
export async function sendTemplate(
  config: WhatsAppConfig,
  to: string,
  template: WhatsAppTemplate,
  lang: Lang,
  values: readonly string[],
): Promise<SentMessage> {
  const request = new Request(`${config.apiUrl}/${WHATSAPP_API_VERSION}/${config.phoneNumberId}/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${config.token}` },
    body: JSON.stringify(templateMessage(to, template, lang, values)),
    // A stuck API must not hold the queue's consumer: the message goes by SMS instead.
    signal: AbortSignal.timeout(10_000),
  });
  let res: Response;
  try {
    res = await config.fetcher(request);
  } catch (err) {
    throw new WhatsAppSendError(0, { code: 0, message: `no answer: ${String(err)}` });
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // Not JSON: readSendAnswer reports it with the status.
  }
  return readSendAnswer(res.status, body);
}

/**
 * How the shop reaches this account's phone: "whatsapp" when WhatsApp is on and the account chose
 * it (with a phone on the account), else "sms". For any sender of a phone message to an account
 * (order messages decide per event in notifications.ts; codes use this).
 */
export async function phoneChannelFor(
  env: Pick<WhatsAppEnv, "WHATSAPP" | "DB">,
  userId: number,
): Promise<"whatsapp" | "sms"> {
  if (!whatsappOn(env)) return "sms";
  const chosen = await env.DB.prepare(
    "SELECT 1 AS yes FROM users WHERE id = ? AND message_channel = 'whatsapp' AND phone IS NOT NULL",
  )
    .bind(userId)
    .first<number>("yes");
  return chosen ? "whatsapp" : "sms";
}

/**
 * Sends a one-time code by WhatsApp (the AUTHENTICATION template with its copy-code button) when
 * the account chose WhatsApp. True when WhatsApp took it; false when the account did not choose
 * it, WhatsApp is off, or the send failed (logged): the caller then sends the SMS.
 */
export async function sendCodeByWhatsApp(
  env: WhatsAppEnv,
  userId: number,
  phone: string,
  code: string,
  lang: Lang,
): Promise<boolean> {
  if ((await phoneChannelFor(env, userId)) !== "whatsapp") return false;
  const config = whatsappConfig(env);
  const to = whatsappNumber(phone);
  if (!config || !to) return false;
  try {
    await sendTemplate(config, to, CODE_TEMPLATE, lang, [code]);
    return true;
  } catch (err) {
    console.error(
      JSON.stringify({ level: "error", event: "whatsapp.code_failed", to: maskRecipient(phone), error: String(err) }),
    );
    return false;
  }
}

import type { Env, Lang } from "../../env";
import { hmacHex } from "../payments/providers/hmac";
import { renderTemplate, templateNamed } from "./whatsapp-templates";
import { receiveWhatsAppWebhook } from "./whatsapp-webhook";
import { WHATSAPP_STAND_IN } from "./whatsapp-keys";

export { WHATSAPP_STAND_IN };

/**
 * The WhatsApp Business Cloud API's send endpoint as development and test see it, offline: the
 * real adapter (whatsapp.ts) calls this in place of graph.facebook.com, and the dev route
 * POST /backend/dev/whatsapp/{version}/{phoneNumberId}/messages serves the same for anyone else.
 * It checks a request the way the API does and answers in its documented shapes:
 *
 * - the bearer token (else 401, Graph's error 190 "Invalid OAuth access token");
 * - the phone number id (else error 100 with subcode 33, "Unsupported post request");
 * - messaging_product "whatsapp", a `to`, type "template" (else error 100 naming the parameter);
 * - the template exists and has the language (else error 132001 "Template name does not exist in the
 *   translation"); the body's parameter count is the template's (else error 132000 "Number of
 *   parameters does not match the expected number of params"); an AUTHENTICATION template carries
 *   its code again on its copy-code button (else error 131008 "Required parameter is missing");
 *   a parameter with a new line, a tab or more than three spaces in a row (else error 132018).
 *
 * An accepted message is recorded as the shopper would read it (its language's body with the
 * variables filled; GET /backend/dev/whatsapp?to= lists them), answered with a `wamid.`, and then
 * reported to the shop's webhook as Meta does, signed with the app secret: sent, delivered, read.
 *
 * Failing on purpose (POST /backend/dev/whatsapp/fail { to, mode }): `error` answers the API's
 * error error 131030 ("Recipient phone number not in allowed list", as the API's test numbers do);
 * `status` accepts, then reports `failed` (error 131026 "Message undeliverable") to the webhook.
 */

export type StandInFailMode = "error" | "status";

/** One message as the stand-in recorded it. */
export interface StandInMessage {
  id: string;
  to: string;
  template: string;
  lang: Lang;
  variables: string[];
  /** The body in its language with the variables filled. */
  text: string;
  at: string;
}

const TTL = 86_400;
const messagesKey = (to: string) => `dev:whatsapp:to:${to}`;
const failKey = (to: string) => `dev:whatsapp:fail:${to}`;

type StandInEnv = Pick<
  Env,
  "KV" | "DB" | "NOTIFICATIONS" | "ENVIRONMENT" | "WHATSAPP_APP_SECRET" | "WHATSAPP_PHONE_NUMBER_ID" | "WHATSAPP_TOKEN"
>;

/** A number as the stand-in keys it: digits only, the home country's national form made international. */
export function standInNumber(raw: string): string {
  const digits = raw.replace(/\D/g, "");
  if (raw.trim().startsWith("00")) return digits.slice(2);
  if (/^0[1-9]/.test(digits)) return `966${digits.slice(1)}`;
  return digits;
}

export async function standInMessages(kv: KVNamespace, to: string): Promise<StandInMessage[]> {
  return ((await kv.get(messagesKey(standInNumber(to)), "json")) as StandInMessage[] | null) ?? [];
}

export async function setStandInFailure(kv: KVNamespace, to: string, mode: StandInFailMode | null): Promise<void> {
  if (mode) await kv.put(failKey(standInNumber(to)), mode, { expirationTtl: TTL });
  else await kv.delete(failKey(standInNumber(to)));
}

let traceCounter = 0;
function graphError(status: number, code: number, message: string, extra: { subcode?: number; details?: string } = {}) {
  return Response.json(
    {
      error: {
        message: code === 190 ? message : `(#${code}) ${message}`,
        type: "OAuthException",
        code,
        ...(extra.subcode ? { error_subcode: extra.subcode } : {}),
        ...(extra.details ? { error_data: { messaging_product: "whatsapp", details: extra.details } } : {}),
        fbtrace_id: `StandIn${(++traceCounter).toString(36)}${Date.now().toString(36)}`,
      },
    },
    { status },
  );
}

function newWamid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `wamid.${btoa(String.fromCharCode(...bytes))}`;
}

interface TextParam {
  type?: unknown;
  text?: unknown;
}
interface Component {
  type?: unknown;
  sub_type?: unknown;
  index?: unknown;
  parameters?: TextParam[];
}

/** The stand-in as a fetcher (the adapter's `fetcher`), bound to the shop's bindings. */
export function whatsappStandIn(env: StandInEnv): (request: Request) => Promise<Response> {
  return (request) => handleStandIn(env, request);
}

export async function handleStandIn(env: StandInEnv, request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  const at = path.indexOf(WHATSAPP_STAND_IN.path);
  const rest = at >= 0 ? path.slice(at + WHATSAPP_STAND_IN.path.length) : path;
  const route = /^\/v\d+\.\d+\/([^/]+)\/messages$/.exec(rest);
  if (!route || request.method !== "POST") return graphError(400, 2500, `Unknown path components: ${rest}`);
  const token = env.WHATSAPP_TOKEN?.trim() || WHATSAPP_STAND_IN.token;
  if (request.headers.get("authorization") !== `Bearer ${token}`)
    return graphError(401, 190, "Invalid OAuth access token - Cannot parse access token");
  const phoneNumberId = env.WHATSAPP_PHONE_NUMBER_ID?.trim() || WHATSAPP_STAND_IN.phoneNumberId;
  if (route[1] !== phoneNumberId)
    return graphError(400, 100, `Unsupported post request. Object with ID '${route[1]}' does not exist`, {
      subcode: 33,
    });

  let body: Record<string, unknown>;
  try {
    body = (await request.json()) as Record<string, unknown>;
  } catch {
    return graphError(400, 100, "Invalid parameter");
  }
  if (body.messaging_product !== "whatsapp")
    return graphError(400, 100, "The parameter messaging_product is required.");
  if (typeof body.to !== "string" || !/^\+?\d{6,15}$/.test(body.to))
    return graphError(400, 100, "Invalid parameter", { details: "Parameter 'to' is invalid." });
  if (body.recipient_type !== undefined && body.recipient_type !== "individual")
    return graphError(400, 100, "Invalid parameter", { details: "Parameter 'recipient_type' is invalid." });
  if (body.type !== "template")
    return graphError(400, 100, "Invalid parameter", {
      details: "This stand-in sends template messages only: a business starts a conversation with one.",
    });
  const spec = (body.template ?? {}) as { name?: unknown; language?: { code?: unknown }; components?: Component[] };
  const template = typeof spec.name === "string" ? templateNamed(spec.name) : undefined;
  const lang = spec.language?.code;
  if (!template || typeof lang !== "string" || !(template.languages as readonly string[]).includes(lang))
    return graphError(404, 132001, "Template name does not exist in the translation", {
      details: `template name (${String(spec.name)}) does not exist in ${String(lang)}`,
    });
  const components = Array.isArray(spec.components) ? spec.components : [];
  const bodyParams = components.find((c) => c.type === "body")?.parameters ?? [];
  if (bodyParams.length !== template.variables.length)
    return graphError(400, 132000, "Number of parameters does not match the expected number of params", {
      details: `body: number of localizable_params (${bodyParams.length}) does not match the expected number of params (${template.variables.length})`,
    });
  const values: string[] = [];
  for (const p of bodyParams) {
    if (p.type !== "text" || typeof p.text !== "string" || !p.text)
      return graphError(400, 131008, "Required parameter is missing", {
        details: "Parameter of type text is missing text value",
      });
    if (/[\n\t]| {4,}/.test(p.text))
      return graphError(400, 132018, "There was an issue with the parameters in your template.", {
        details: "Param text cannot have new-line/tab characters or more than 4 consecutive spaces",
      });
    values.push(p.text);
  }
  if (template.copyCodeButton) {
    const button = components.find((c) => c.type === "button");
    const code = button?.parameters?.[0]?.text;
    if (button?.sub_type !== "url" || String(button.index) !== "0" || code !== values[0])
      return graphError(400, 131008, "Required parameter is missing", {
        details: "buttons: the copy code button needs the code as its parameter",
      });
  }

  const to = standInNumber(body.to);
  const failing = (await env.KV.get(failKey(to))) as StandInFailMode | null;
  if (failing === "error")
    return graphError(400, 131030, "Recipient phone number not in allowed list", {
      subcode: 2655007,
      details:
        "Recipient phone number not in allowed list: Add recipient phone number to recipient list and try again.",
    });

  const wamid = newWamid();
  const message: StandInMessage = {
    id: wamid,
    to,
    template: template.name,
    lang: lang as Lang,
    variables: values,
    text: renderTemplate(template, lang as Lang, values),
    at: new Date().toISOString(),
  };
  const kept = await standInMessages(env.KV, to);
  await env.KV.put(messagesKey(to), JSON.stringify([message, ...kept].slice(0, 20)), { expirationTtl: TTL });

  // Meta reports the message's fate to the webhook: here before the answer, which the shop's
  // webhook handles as it would a report that overtook the answer (whatsapp-webhook.ts).
  const steps: ("sent" | "delivered" | "read" | "failed")[] =
    failing === "status" ? ["sent", "failed"] : ["sent", "delivered", "read"];
  for (const status of steps) await postStatus(env, phoneNumberId, wamid, to, status);

  return Response.json({
    messaging_product: "whatsapp",
    contacts: [{ input: body.to, wa_id: to }],
    messages: [{ id: wamid, message_status: "accepted" }],
  });
}

/** One status webhook, in Meta's envelope, signed with the app secret, through the shop's own verification. */
async function postStatus(
  env: StandInEnv,
  phoneNumberId: string,
  wamid: string,
  to: string,
  status: "sent" | "delivered" | "read" | "failed",
): Promise<void> {
  const payload = {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: phoneNumberId },
              statuses: [
                {
                  id: wamid,
                  status,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  recipient_id: to,
                  ...(status === "failed"
                    ? {
                        errors: [
                          {
                            code: 131026,
                            title: "Message undeliverable",
                            message: "Message undeliverable",
                            error_data: { details: "Message Undeliverable." },
                          },
                        ],
                      }
                    : {
                        pricing: { billable: true, pricing_model: "PMP", category: "utility" },
                      }),
                },
              ],
            },
          },
        ],
      },
    ],
  };
  const raw = JSON.stringify(payload);
  const secret = env.WHATSAPP_APP_SECRET?.trim() || WHATSAPP_STAND_IN.appSecret;
  const outcome = await receiveWhatsAppWebhook(env, raw, `sha256=${await hmacHex(secret, raw)}`);
  if (outcome.status !== 200)
    console.warn(JSON.stringify({ level: "warn", event: "whatsapp.stand_in_webhook_refused", status: outcome.status }));
}

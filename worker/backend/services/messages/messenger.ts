import type { Env, Lang } from "../../env";
import { renderCodeMessage, type CodeTemplate, type RenderedMessage } from "./mail";
import type { OrderMessageKind, StaffAlertKind } from "./types";
import type { ShopperTopic } from "../../../../contract/unsubscribe";

/**
 * Delivery of one-time codes and account notices (DESIGN §5) behind one interface.
 * `MESSENGER` selects the implementation:
 * - unset or `outbox` (default): the development outbox. In development and test it writes each
 *   message, code included, to the `dev_outbox` table (readable at GET /backend/dev/outbox) and to
 *   the log. In production it stores nothing and logs only a warning without the code: a code in
 *   clear must never sit in a production database or log, so production must configure a provider.
 * - `http`: a real provider over HTTPS. POSTs JSON `{ to, channel, purpose, lang, subject, text, html? }`
 *   (html: an email's HTML part)
 *   to `MESSENGER_URL` with `Authorization: Bearer <MESSENGER_KEY>`; any non-2xx answer is a
 *   delivery failure. Point it at an email/SMS relay (e.g. a transactional email API's send
 *   endpoint or a small Worker that fans out to email and SMS).
 */
export type Channel = "email" | "sms";
/**
 * Codes and account notices: `account-exists` goes to the owner when someone registers with
 * their email or phone; `email-changed` goes to the current address when the email or phone is
 * changed. `order.<kind>`: an order message (services/messages/notifications.ts), rendered by its caller;
 * `staff-invitation` likewise (services/console/staff-invitations.ts).
 */
export type CodePurpose =
  "verify" | "reset" | "account-exists" | "email-changed" | "staff" | "cod" | "stock_alert" | "sign_in" | "erase";
export type MessagePurpose =
  CodePurpose | `order.${OrderMessageKind | StaffAlertKind}` | "staff-invitation" | `shopper.${ShopperTopic}`;

export interface OutgoingMessage {
  to: string;
  channel: Channel;
  purpose: MessagePurpose;
  /** The one-time code; empty for notices and order messages. */
  code: string;
  lang: Lang;
  /** The message as written; codes and notices are rendered from their purpose when absent. */
  content?: RenderedMessage;
}

export interface Messenger {
  send(message: OutgoingMessage): Promise<void>;
}

const CODE_TEMPLATES: Record<CodePurpose, CodeTemplate> = {
  verify: "verify",
  reset: "reset",
  "account-exists": "accountExists",
  "email-changed": "emailChanged",
  staff: "staff",
  cod: "cod",
  stock_alert: "stockAlert",
  sign_in: "signIn",
  erase: "erase",
};

/** The message's subject, text and HTML, in its language (templates: the message catalogue's `mail` area). */
export function renderMessage(message: OutgoingMessage): RenderedMessage {
  if (message.content) return message.content;
  if (
    message.purpose.startsWith("order.") ||
    message.purpose.startsWith("shopper.") ||
    message.purpose === "staff-invitation"
  )
    throw new Error(`This message (${message.purpose}) is rendered by its sender.`);
  return renderCodeMessage(message.lang, CODE_TEMPLATES[message.purpose as CodePurpose], message.code);
}

/** Hides most of an address or number in logs: "a***@example.com", "+96***67". */
export function maskRecipient(to: string): string {
  const at = to.indexOf("@");
  if (at > 0) return `${to[0]}***${to.slice(at)}`;
  return to.length > 5 ? `${to.slice(0, 3)}***${to.slice(-2)}` : "***";
}

export const outboxReadable = (env: Pick<Env, "ENVIRONMENT">) =>
  env.ENVIRONMENT === "development" || env.ENVIRONMENT === "test";

export class OutboxMessenger implements Messenger {
  constructor(
    private readonly db: D1Database,
    private readonly env: Pick<Env, "ENVIRONMENT">,
  ) {}

  async send(message: OutgoingMessage): Promise<void> {
    if (!outboxReadable(this.env)) {
      console.warn(
        JSON.stringify({
          level: "warn",
          event: "messenger.unconfigured",
          purpose: message.purpose,
          to: maskRecipient(message.to),
          hint: "set MESSENGER=http with MESSENGER_URL and MESSENGER_KEY",
        }),
      );
      return;
    }
    const { subject, text, html } = renderMessage(message);
    await this.db
      .prepare(
        "INSERT INTO dev_outbox (recipient, channel, purpose, code, lang, subject, body, html) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .bind(message.to, message.channel, message.purpose, message.code, message.lang, subject, text, html)
      .run();
    const { content: _content, ...logged } = message;
    console.log(JSON.stringify({ level: "info", event: "messenger.outbox", ...logged, subject }));
  }
}

export class HttpMessenger implements Messenger {
  constructor(
    private readonly url: string,
    private readonly key: string,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  async send(message: OutgoingMessage): Promise<void> {
    const { subject, text, html } = renderMessage(message);
    const res = await this.fetcher(this.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${this.key}` },
      body: JSON.stringify({
        to: message.to,
        channel: message.channel,
        purpose: message.purpose,
        lang: message.lang,
        subject,
        text,
        ...(html ? { html } : {}),
      }),
      // A stuck provider must not hold the request (or its waitUntil) open.
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`Messenger provider answered ${res.status}`);
  }
}

export function messengerFor(
  env: Pick<Env, "DB" | "ENVIRONMENT" | "MESSENGER" | "MESSENGER_URL" | "MESSENGER_KEY">,
): Messenger {
  const kind = (env.MESSENGER ?? "outbox").trim().toLowerCase() || "outbox";
  if (kind === "outbox") return new OutboxMessenger(env.DB, env);
  if (kind === "http") {
    if (!env.MESSENGER_URL || !env.MESSENGER_KEY)
      throw new Error("MESSENGER=http needs MESSENGER_URL and MESSENGER_KEY.");
    return new HttpMessenger(env.MESSENGER_URL, env.MESSENGER_KEY);
  }
  throw new Error(`Unknown MESSENGER "${kind}": use "outbox" or "http".`);
}

export interface OutboxEntry {
  to: string;
  channel: Channel;
  purpose: string;
  code: string;
  lang: Lang;
  subject: string | null;
  text: string | null;
  created_at: string;
}

/** The development outbox for one recipient, newest first. */
export async function readOutbox(db: D1Database, to: string, limit = 20): Promise<OutboxEntry[]> {
  const { results } = await db
    .prepare(
      'SELECT recipient AS "to", channel, purpose, code, lang, subject, body AS text, created_at FROM dev_outbox WHERE recipient = ? ORDER BY id DESC LIMIT ?',
    )
    .bind(to, limit)
    .all<OutboxEntry>();
  return results;
}

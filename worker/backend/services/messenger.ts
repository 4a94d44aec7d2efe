import type { Env } from "../../env";
import type { Lang } from "../env";
import { say, type Bilingual } from "../../lib/i18n";

/**
 * Delivery of one-time codes and account notices (DESIGN §5) behind one interface.
 * `MESSENGER` selects the implementation:
 * - unset or `outbox` (default): the development outbox. In development and test it writes each
 *   message, code included, to the `dev_outbox` table (readable at GET /backend/dev/outbox) and to
 *   the log. In production it stores nothing and logs only a warning without the code: a code in
 *   clear must never sit in a production database or log, so production must configure a provider.
 * - `http`: a real provider over HTTPS. POSTs JSON `{ to, channel, purpose, lang, subject, text }`
 *   to `MESSENGER_URL` with `Authorization: Bearer <MESSENGER_KEY>`; any non-2xx answer is a
 *   delivery failure. Point it at an email/SMS relay (e.g. a transactional email API's send
 *   endpoint or a small Worker that fans out to email and SMS).
 */
export type Channel = "email" | "sms";
/**
 * Notices (no code): `account-exists` goes to the owner when someone registers with their email
 * or phone; `email-changed` goes to the current address when the email or phone is changed.
 */
export type MessagePurpose = "verify" | "reset" | "account-exists" | "email-changed" | "staff";

export interface OutgoingMessage {
  to: string;
  channel: Channel;
  purpose: MessagePurpose;
  /** The one-time code; empty for notices. */
  code: string;
  lang: Lang;
}

export interface Messenger {
  send(message: OutgoingMessage): Promise<void>;
}

const SUBJECTS: Record<MessagePurpose, Bilingual> = {
  verify: { en: "Your verification code", ar: "رمز التحقق الخاص بك" },
  reset: { en: "Your password reset code", ar: "رمز إعادة تعيين كلمة المرور" },
  "account-exists": { en: "Someone tried to register with your details", ar: "محاولة تسجيل باستخدام بياناتك" },
  "email-changed": { en: "Your account's contact details are changing", ar: "تغيير بيانات التواصل في حسابك" },
  staff: { en: "Your console sign-in code", ar: "رمز الدخول إلى لوحة الإدارة" },
};

const TEXTS: Record<MessagePurpose, Bilingual> = {
  verify: {
    en: "Your verification code is {code}. It expires in 10 minutes. If you did not create an account, ignore this message.",
    ar: "رمز التحقق الخاص بك هو {code}. تنتهي صلاحيته خلال 10 دقائق. إذا لم تنشئ حسابًا فتجاهل هذه الرسالة.",
  },
  reset: {
    en: "Your password reset code is {code}. It expires in 10 minutes. If you did not ask for it, ignore this message.",
    ar: "رمز إعادة تعيين كلمة المرور هو {code}. تنتهي صلاحيته خلال 10 دقائق. إذا لم تطلبه فتجاهل هذه الرسالة.",
  },
  "account-exists": {
    en: "Someone tried to create an account with your details. You already have an account: sign in, or reset your password if you forgot it.",
    ar: "حاول أحدهم إنشاء حساب باستخدام بياناتك. لديك حساب بالفعل: سجّل الدخول، أو أعد تعيين كلمة المرور إذا نسيتها.",
  },
  "email-changed": {
    en: "The email address or phone number of your account was just changed, and other devices were signed out. A new email address only takes effect once the code we sent to it is entered; until then you still sign in with this one. If this was not you, reset your password now.",
    ar: "تم للتو تغيير البريد الإلكتروني أو رقم الجوال في حسابك، وتم تسجيل الخروج من الأجهزة الأخرى. لا يسري البريد الإلكتروني الجديد إلا بعد إدخال الرمز الذي أرسلناه إليه؛ وحتى ذلك الحين تسجّل الدخول بهذا البريد. إذا لم تكن أنت من قام بذلك فأعد تعيين كلمة المرور الآن.",
  },
  staff: {
    en: "Your code to open the shop's console is {code}. It expires in 10 minutes. If you did not just sign in to the console, change your password now.",
    ar: "رمز فتح لوحة إدارة المتجر هو {code}. تنتهي صلاحيته خلال 10 دقائق. إذا لم تسجّل الدخول إلى اللوحة للتو فغيّر كلمة المرور الآن.",
  },
};

export function renderMessage(message: OutgoingMessage): { subject: string; text: string } {
  return {
    subject: say(message.lang, SUBJECTS[message.purpose]),
    text: say(message.lang, TEXTS[message.purpose], { code: message.code }),
  };
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
    await this.db
      .prepare("INSERT INTO dev_outbox (recipient, channel, purpose, code, lang) VALUES (?, ?, ?, ?, ?)")
      .bind(message.to, message.channel, message.purpose, message.code, message.lang)
      .run();
    console.log(JSON.stringify({ level: "info", event: "messenger.outbox", ...message }));
  }
}

export class HttpMessenger implements Messenger {
  constructor(
    private readonly url: string,
    private readonly key: string,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  async send(message: OutgoingMessage): Promise<void> {
    const { subject, text } = renderMessage(message);
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
  purpose: string;
  code: string;
  created_at: string;
}

/** The development outbox for one recipient, newest first. */
export async function readOutbox(db: D1Database, to: string, limit = 20): Promise<OutboxEntry[]> {
  const { results } = await db
    .prepare(
      'SELECT recipient AS "to", purpose, code, created_at FROM dev_outbox WHERE recipient = ? ORDER BY id DESC LIMIT ?',
    )
    .bind(to, limit)
    .all<OutboxEntry>();
  return results;
}

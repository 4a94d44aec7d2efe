import type { Env, Lang } from "../../env";
import type { MessageChannel, MessageChannelState } from "../../../../contract/message-channel";
import { say } from "../../../../contract/server/i18n";
import { BackendError, notFound, unprocessable } from "../../http";
import { msg } from "../../messages";
import { whatsappOn } from "./whatsapp";

/**
 * The shopper's choice of how order messages reach their phone (users.message_channel): SMS, the
 * default, or WhatsApp, which needs a phone on the account and WhatsApp switched on. Each choice is
 * kept in message_channel_consents with the wording the shopper was shown and its language, so the
 * opt-in can be shown later, and a withdrawal likewise. notifications.ts reads the choice when an
 * event is written; whatsapp.ts `phoneChannelFor` is the same for any other sender.
 */

/** The phone as the sentence shows it, kept left-to-right inside Arabic text. */
const isolated = (phone: string) => `\u2066${phone}\u2069`;

/** The opt-in sentence for a phone, in a language: shown beside the choice and recorded with it. */
export function whatsappOptInWording(lang: Lang, phone: string): string {
  return say(lang, msg("whatsapp.consent"), { phone: isolated(phone) });
}

interface Account {
  phone: string | null;
  message_channel: MessageChannel;
}

async function accountOf(db: D1Database, userId: number): Promise<Account> {
  const account = await db
    .prepare("SELECT phone, message_channel FROM users WHERE id = ?")
    .bind(userId)
    .first<Account>();
  if (!account) throw notFound();
  return account;
}

export async function messageChannelState(
  env: Pick<Env, "DB" | "WHATSAPP">,
  userId: number,
  lang: Lang,
): Promise<MessageChannelState> {
  const account = await accountOf(env.DB, userId);
  const optedIn =
    account.message_channel === "whatsapp"
      ? await env.DB.prepare(
          "SELECT created_at FROM message_channel_consents WHERE user_id = ? AND channel = 'whatsapp' ORDER BY id DESC LIMIT 1",
        )
          .bind(userId)
          .first<string>("created_at")
      : null;
  return {
    channel: account.message_channel,
    whatsapp_available: whatsappOn(env),
    phone: account.phone,
    consent: account.phone ? whatsappOptInWording(lang, account.phone) : null,
    opted_in_at: optedIn ?? null,
  };
}

/**
 * Records a choice. WhatsApp needs WhatsApp on and a phone on the account (422 on `channel`
 * otherwise); when the page sent the wording it showed, it must be the current one (the phone may
 * have changed since), and the backend's own wording is what is kept. Choosing what is already
 * chosen records nothing.
 */
export async function chooseMessageChannel(
  env: Pick<Env, "DB" | "WHATSAPP">,
  userId: number,
  channel: MessageChannel,
  shown: string | undefined,
  lang: Lang,
): Promise<MessageChannelState> {
  const account = await accountOf(env.DB, userId);
  if (channel === "whatsapp") {
    if (!whatsappOn(env)) throw unprocessable({ channel: [say(lang, msg("whatsapp.notOffered"))] });
    if (!account.phone) throw unprocessable({ channel: [say(lang, msg("whatsapp.needsPhone"))] });
  }
  const wording =
    channel === "whatsapp"
      ? whatsappOptInWording(lang, account.phone!)
      : say(lang, msg("whatsapp.saved"), { channel: say(lang, msg("whatsapp.channelNames.sms")) });
  if (channel === "whatsapp" && shown !== undefined && shown.trim() !== wording)
    throw new BackendError(409, say(lang, msg("whatsapp.wordingChanged")));
  if (account.message_channel !== channel)
    await env.DB.batch([
      env.DB.prepare(
        "UPDATE users SET message_channel = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
      ).bind(channel, userId),
      env.DB.prepare(
        "INSERT INTO message_channel_consents (user_id, channel, phone, wording, lang) VALUES (?, ?, ?, ?, ?)",
      ).bind(userId, channel, account.phone, wording, lang),
    ]);
  return messageChannelState(env, userId, lang);
}

/** The answer's message: "Saved: order messages reach you by WhatsApp." */
export function savedMessage(lang: Lang, channel: MessageChannel): string {
  return say(lang, msg("whatsapp.saved"), { channel: say(lang, msg(`whatsapp.channelNames.${channel}`)) });
}

import type { Env, Lang } from "../../env";
import { publicOrigin } from "../../../../contract/server/public-origin";
import type { ShopperTopic } from "../../../../contract/unsubscribe";
import { pepper } from "../accounts/password";
import { hmacHex, verifyHmac } from "../payments/providers/hmac";
import { consentStatement } from "../consents/consents";

/**
 * Stopping a kind of message from its own link, with nothing to sign in to. The link carries the
 * address's keyed hash and a signature over that hash and the topic (both HMAC-SHA256 under the
 * pepper), so it stops exactly one topic for exactly one address, never names the address, and
 * cannot be made for another. Opt-outs are stored by the same hash: the table lists no one.
 * A link does not expire: a message read a year later still stops the next one.
 */

type SecretEnv = Pick<Env, "AUTH_PEPPER" | "ENVIRONMENT">;

/** One address, however it was typed: emails case-folded, phones as stored (E.164). */
const normalised = (recipient: string) => recipient.trim().toLowerCase();

/** The keyed hash an address is known by in `message_optouts` and in its links. */
export const recipientHash = (env: SecretEnv, recipient: string) =>
  hmacHex(pepper(env), `message-recipient\n${normalised(recipient)}`);

const signed = (topic: ShopperTopic, hash: string) => `unsubscribe\n${topic}\n${hash}`;

/** The token of the link that stops `topic` for `recipient`. */
export async function unsubscribeToken(env: SecretEnv, recipient: string, topic: ShopperTopic): Promise<string> {
  const hash = await recipientHash(env, recipient);
  return `${hash}.${await hmacHex(pepper(env), signed(topic, hash))}`;
}

/**
 * The absolute link (on PUBLIC_ORIGIN; in development and test without one, on `siteOrigin`) that
 * stops `topic` for `recipient`: the storefront's page asks to confirm.
 */
export async function unsubscribeUrl(
  env: SecretEnv & Pick<Env, "PUBLIC_ORIGIN">,
  lang: Lang,
  recipient: string,
  topic: ShopperTopic,
  siteOrigin?: string | null,
): Promise<string> {
  const query = new URLSearchParams({ topic, token: await unsubscribeToken(env, recipient, topic) });
  return `${publicOrigin(env, siteOrigin)}/${lang}/unsubscribe?${query}`;
}

/**
 * Records the opt-out a link asks for. False when the token is not one the shop signed for this
 * topic (checked in constant time); repeating a good one is a no-op. Stopping cart reminders also
 * withdraws the consent to them (source `link`): the address's, and that of each account whose
 * reminders went to it, in the same batch.
 */
export async function unsubscribe(
  env: SecretEnv & Pick<Env, "DB">,
  topic: ShopperTopic,
  token: string,
  lang: Lang = "en",
): Promise<boolean> {
  const [hash = "", signature = ""] = token.split(".");
  if (!(await verifyHmac(pepper(env), signed(topic, hash), signature))) return false;
  const db = env.DB;
  const withdrawals: D1PreparedStatement[] = [];
  if (topic === "cart_reminder") {
    const withdrawn = { purpose: "cart_reminders" as const, granted: false, lang, source: "link" as const };
    const { results: accounts } = await db
      .prepare("SELECT DISTINCT user_id FROM cart_reminders WHERE recipient_hash = ? AND user_id IS NOT NULL")
      .bind(hash)
      .all<{ user_id: number }>();
    withdrawals.push(consentStatement(db, { recipientHash: hash }, withdrawn));
    for (const { user_id } of accounts) withdrawals.push(consentStatement(db, { userId: user_id }, withdrawn));
  }
  await db.batch([
    db.prepare("INSERT OR IGNORE INTO message_optouts (recipient_hash, topic) VALUES (?, ?)").bind(hash, topic),
    ...withdrawals,
  ]);
  return true;
}

/** Whether `recipient` stopped `topic`. */
export async function isOptedOut(
  env: SecretEnv & Pick<Env, "DB">,
  recipient: string,
  topic: ShopperTopic,
): Promise<boolean> {
  const row = await env.DB.prepare("SELECT 1 AS x FROM message_optouts WHERE recipient_hash = ? AND topic = ?")
    .bind(await recipientHash(env, recipient), topic)
    .first<number>("x");
  return row === 1;
}

import type { Lang } from "../../env";
import {
  CONSENT_PURPOSES,
  CONSENT_WORDING,
  type ConsentPurpose,
  type ConsentRecord,
  type ConsentSource,
  type ConsentState,
} from "../../../../contract/consents";
import { msg, type MessageKey } from "../../messages";
import { say } from "../../../../contract/server/i18n";

/**
 * Consent to messages beyond an order's news (contract/consents.ts), as an append-only log in
 * `consents`: every decision is a row carrying the wording the shopper saw, so the current answer
 * is the newest row and the history is the evidence. An account's decisions are kept under its
 * id; a guest's under the keyed hash of the address they gave (`recipientHash` in
 * services/messages/unsubscribe.ts), so the table names no one.
 */
export type ConsentSubject = { userId: number } | { recipientHash: string };

/** Each purpose's wording by version: a new version is a new key, and the old stays for its records. */
const WORDING_KEYS: Record<ConsentPurpose, Record<string, MessageKey>> = {
  marketing: { v1: "consents.marketing.v1" },
  cart_reminders: { v1: "consents.cart_reminders.v1" },
};

/** The text of a purpose's current wording, in `lang`: what the record keeps as agreed. */
export function consentWording(purpose: ConsentPurpose, lang: Lang): string {
  const key = WORDING_KEYS[purpose][CONSENT_WORDING[purpose]];
  if (!key) throw new Error(`No wording ${CONSENT_WORDING[purpose]} for ${purpose}`);
  return say(lang, msg(key));
}

const subjectColumn = (subject: ConsentSubject) =>
  "userId" in subject
    ? { column: "user_id", value: subject.userId as number | string }
    : { column: "recipient_hash", value: subject.recipientHash as number | string };

/** The statement that records one decision, to run in the batch of whatever it came with. */
export function consentStatement(
  db: D1Database,
  subject: ConsentSubject,
  decision: { purpose: ConsentPurpose; granted: boolean; lang: Lang; source: ConsentSource },
): D1PreparedStatement {
  const { column, value } = subjectColumn(subject);
  return db
    .prepare(
      `INSERT INTO consents (${column}, purpose, granted, wording, wording_version, lang, source) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      value,
      decision.purpose,
      decision.granted ? 1 : 0,
      consentWording(decision.purpose, decision.lang),
      CONSENT_WORDING[decision.purpose],
      decision.lang,
      decision.source,
    );
}

interface ConsentRow {
  purpose: ConsentPurpose;
  granted: number;
  wording: string;
  wording_version: string;
  lang: Lang;
  source: ConsentSource;
  created_at: string;
}

/** A subject's current answers (false where never asked) and every decision, newest first. */
export async function readConsents(db: D1Database, subject: ConsentSubject): Promise<ConsentState> {
  const { column, value } = subjectColumn(subject);
  const { results } = await db
    .prepare(
      `SELECT purpose, granted, wording, wording_version, lang, source, created_at FROM consents WHERE ${column} = ? ORDER BY id DESC`,
    )
    .bind(value)
    .all<ConsentRow>();
  const history: ConsentRecord[] = results.map((row) => ({ ...row, granted: row.granted === 1 }));
  const current = Object.fromEntries(
    CONSENT_PURPOSES.map((purpose) => [purpose, history.find((r) => r.purpose === purpose)?.granted ?? false]),
  ) as Record<ConsentPurpose, boolean>;
  return { current, history };
}

/** Whether the subject's newest decision on `purpose` is a yes. */
export async function hasConsent(db: D1Database, subject: ConsentSubject, purpose: ConsentPurpose): Promise<boolean> {
  const { column, value } = subjectColumn(subject);
  const row = await db
    .prepare(`SELECT granted FROM consents WHERE ${column} = ? AND purpose = ? ORDER BY id DESC LIMIT 1`)
    .bind(value, purpose)
    .first<number>("granted");
  return row === 1;
}

/** The SQL condition "the newest decision on `purpose` of the row's account is a yes", for sweeps over many. */
export function consentedSql(userIdExpr: string, purpose: ConsentPurpose): string {
  return `(SELECT granted FROM consents WHERE user_id = ${userIdExpr} AND purpose = '${purpose}' ORDER BY id DESC LIMIT 1) = 1`;
}

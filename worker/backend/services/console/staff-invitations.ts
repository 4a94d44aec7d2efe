import type { StaffRole } from "../../../../contract/console";
import { shopMoment } from "../../../../contract/shop-time";
import {
  INVITATION_DAYS,
  INVITATION_FRAGMENT_KEY,
  INVITATION_PATH,
  INVITATION_TOKEN,
  type InvitationLookup,
  type StaffInvitation,
} from "../../../../contract/staff-invitations";
import type { Env, Lang, StaffCaller } from "../../env";
import { say, type Bilingual } from "../../../../contract/server/i18n";
import { publicOrigin } from "../../../../contract/server/public-origin";
import { BackendError, notFound } from "../../http";
import { randomToken, sha256Hex } from "../../identity";
import { deliver, type AccountsEnv } from "../accounts/accounts";
import { renderStaffInvitation } from "../messages/mail";
import { maskRecipient } from "../messages/messenger";
import { loadSettings } from "../shared/settings";
import { auditStatement } from "./audit-log";
import { msg } from "../../messages";

/**
 * Staff invitations: an owner invites an email with a role; the link emailed there opens the
 * shop's accept page, where the invitee, signed in to a shop account whose VERIFIED email is the
 * invited one, takes the seat. So a seat goes only to whoever holds the invited inbox, and only
 * with their consent: an account someone registered in advance with a future hire's address
 * (never verified) cannot take it, nor can anyone the link is forwarded to.
 *
 * The link's token is random (256 bits) and kept only as its SHA-256 hash. A resend replaces the
 * hash, so the old link opens nothing; accepting and revoking close the invitation for good.
 */

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
type Actor = Pick<StaffCaller, "user_id" | "email" | "name">;
export type InvitationEnv = AccountsEnv & Pick<Env, "PUBLIC_ORIGIN">;

interface InvitationRow {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  lang: Lang;
  status: "pending" | "accepted" | "revoked" | "expired";
  expires_at: string;
  created_at: string;
  invited_by: string | null;
}

const expiryFrom = (from = Date.now()) => new Date(from + INVITATION_DAYS * 86_400_000).toISOString();
/** Past its expiry, an invitation is expired whatever its row still says. */
const effectiveStatus = (row: Pick<InvitationRow, "status" | "expires_at">) =>
  row.status === "pending" && Date.parse(row.expires_at) <= Date.now() ? "expired" : row.status;

/** Marks the pending invitations whose time ran out as expired (run before anything counts on them). */
const expireStatement = (db: D1Database) =>
  db.prepare(
    `UPDATE staff_invitations SET status = 'expired', updated_at = ${NOW} WHERE status = 'pending' AND expires_at <= ${NOW}`,
  );

const MESSAGES = {
  alreadyStaff: msg("console.staffInvitations.alreadyStaff"),
  alreadyInvited: msg("console.staffInvitations.alreadyInvited"),
  closed: msg("console.staffInvitations.closed"),
  linkClosed: msg("console.staffInvitations.linkClosed"),
  wrongAccount: msg("console.staffInvitations.wrongAccount"),
  unverified: msg("console.staffInvitations.unverified"),
  staffAlready: msg("console.staffInvitations.staffAlready"),
} satisfies Record<string, Bilingual>;

const refuse = (lang: Lang, field: string, message: Bilingual) =>
  new BackendError(422, say(lang, message), { [field]: [say(lang, message)] });

/** The open invitations (pending, or expired and not resent or revoked), newest first. */
export async function listInvitations(db: D1Database): Promise<StaffInvitation[]> {
  const { results } = await db
    .prepare(
      `SELECT i.id, i.email, i.name, i.role, i.lang, i.status, i.expires_at, i.created_at, u.email AS invited_by
       FROM staff_invitations i LEFT JOIN users u ON u.id = i.invited_by
       WHERE i.status IN ('pending', 'expired') ORDER BY i.id DESC LIMIT 100`,
    )
    .all<InvitationRow>();
  return results.map((row) => ({ ...row, status: effectiveStatus(row) as "pending" | "expired" }));
}

async function findInvitation(db: D1Database, id: number): Promise<InvitationRow> {
  const row = await db
    .prepare(
      `SELECT i.id, i.email, i.name, i.role, i.lang, i.status, i.expires_at, i.created_at, u.email AS invited_by
       FROM staff_invitations i LEFT JOIN users u ON u.id = i.invited_by WHERE i.id = ?`,
    )
    .bind(id)
    .first<InvitationRow>();
  if (!row) throw notFound();
  return row;
}

/** The email of an invitation, in its language, with a link to the accept page that carries the token. */
async function sendInvitation(
  env: InvitationEnv,
  ownUrl: string,
  row: Pick<InvitationRow, "email" | "name" | "role" | "lang" | "expires_at">,
  inviter: Actor,
  token: string,
): Promise<void> {
  const settings = await loadSettings(env);
  const signature = row.lang === "ar" ? settings.store.name_ar : settings.store.name_en;
  const url = `${publicOrigin(env, ownUrl)}/${row.lang}${INVITATION_PATH}#${INVITATION_FRAGMENT_KEY}=${token}`;
  const content = renderStaffInvitation(
    row.lang,
    {
      name: row.name,
      inviter: inviter.name || inviter.email,
      role: row.role,
      email: row.email,
      url,
      until: shopMoment(row.expires_at, row.lang),
    },
    signature,
  );
  await deliver(env, row.email, "email", "staff-invitation", "", row.lang, content);
}

export interface InviteInput {
  email: string;
  role: StaffRole;
  name: string;
  lang: Lang;
}

/**
 * Invites `input.email` to the staff as `input.role`, and emails the link. Refused for an address
 * a staff member already uses, or one with an open invitation (resend that one instead). Audited.
 */
export async function inviteStaff(
  env: InvitationEnv,
  ownUrl: string,
  inviter: Actor,
  input: InviteInput,
  lang: Lang,
): Promise<StaffInvitation> {
  const db = env.DB;
  const staff = await db
    .prepare(
      "SELECT 1 FROM staff s JOIN users u ON u.id = s.user_id WHERE u.email = ?1 COLLATE NOCASE OR s.email = ?1 COLLATE NOCASE",
    )
    .bind(input.email)
    .first();
  if (staff) throw refuse(lang, "email", MESSAGES.alreadyStaff);
  const token = randomToken();
  const expiresAt = expiryFrom();
  let id: number;
  try {
    const [, inserted] = await db.batch([
      expireStatement(db),
      db
        .prepare(
          `INSERT INTO staff_invitations (email, name, role, lang, token_hash, expires_at, invited_by)
           VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        )
        .bind(input.email, input.name, input.role, input.lang, await sha256Hex(token), expiresAt, inviter.user_id),
      auditStatement(
        db,
        inviter,
        "staff.invite",
        "staff_invitation",
        null,
        null,
        { email: input.email, name: input.name, role: input.role, expires_at: expiresAt },
        { entityOfLastInsert: true },
      ),
    ]);
    id = (inserted!.results[0] as { id: number }).id;
  } catch (error) {
    if (/UNIQUE constraint failed/i.test(String(error))) throw refuse(lang, "email", MESSAGES.alreadyInvited);
    throw error;
  }
  const row = await findInvitation(db, id);
  await sendInvitation(env, ownUrl, row, inviter, token);
  return { ...row, status: "pending" };
}

/**
 * A new link for an open invitation (pending or expired): a new token, seven days from now; the
 * old link opens nothing from this moment. Accepted and revoked invitations stay closed. Audited.
 */
export async function resendInvitation(
  env: InvitationEnv,
  ownUrl: string,
  inviter: Actor,
  id: number,
  lang: Lang,
): Promise<StaffInvitation> {
  const db = env.DB;
  const before = await findInvitation(db, id);
  const token = randomToken();
  const expiresAt = expiryFrom();
  const [updated] = await db.batch([
    db
      .prepare(
        `UPDATE staff_invitations SET token_hash = ?, expires_at = ?, status = 'pending', updated_at = ${NOW}
         WHERE id = ? AND status IN ('pending', 'expired')`,
      )
      .bind(await sha256Hex(token), expiresAt, id),
    auditStatement(
      db,
      inviter,
      "staff.invite_resend",
      "staff_invitation",
      id,
      { email: before.email, expires_at: before.expires_at },
      { email: before.email, expires_at: expiresAt },
      { onlyIfChanged: true },
    ),
  ]);
  if (!updated!.meta.changes) throw refuse(lang, "invitation", MESSAGES.closed);
  const row = { ...before, expires_at: expiresAt };
  await sendInvitation(env, ownUrl, row, inviter, token);
  return { ...row, status: "pending" };
}

/** Revokes an open invitation: its link opens nothing any more. Audited. */
export async function revokeInvitation(db: D1Database, actor: Actor, id: number, lang: Lang): Promise<void> {
  const before = await findInvitation(db, id);
  const [updated] = await db.batch([
    db
      .prepare(
        `UPDATE staff_invitations SET status = 'revoked', updated_at = ${NOW} WHERE id = ? AND status IN ('pending', 'expired')`,
      )
      .bind(id),
    auditStatement(
      db,
      actor,
      "staff.invite_revoke",
      "staff_invitation",
      id,
      { email: before.email, role: before.role },
      null,
      { onlyIfChanged: true },
    ),
  ]);
  if (!updated!.meta.changes) throw refuse(lang, "invitation", MESSAGES.closed);
}

/** The invitation a link's token opens, if any (a malformed token is looked up as nothing). */
async function byToken(db: D1Database, token: string): Promise<(InvitationRow & { token_hash: string }) | null> {
  if (!INVITATION_TOKEN.test(token)) return null;
  return db
    .prepare(
      `SELECT id, email, name, role, lang, status, expires_at, created_at, NULL AS invited_by, token_hash
       FROM staff_invitations WHERE token_hash = ?`,
    )
    .bind(await sha256Hex(token))
    .first();
}

/**
 * What the holder of a link learns: the role and the invited address, masked, while the
 * invitation is open; else only why not. Nothing for a token that names no invitation.
 */
export async function lookupInvitation(db: D1Database, token: string): Promise<InvitationLookup> {
  const row = await byToken(db, token);
  if (!row) return { state: "invalid" };
  const status = effectiveStatus(row);
  if (status !== "pending") return { state: status };
  return { state: "pending", role: row.role, email: maskRecipient(row.email), expires_at: row.expires_at };
}

/**
 * Accepts an invitation for the signed-in account `userId`: its email must be verified and be the
 * invited one. The seat is pinned to that email (services/console/staff.ts), the invitation closed in the
 * same batch (single use: of two concurrent accepts, one wins). Audited as the invitee's act.
 */
export async function acceptInvitation(
  db: D1Database,
  userId: number,
  token: string,
  lang: Lang,
): Promise<{ role: StaffRole }> {
  const row = await byToken(db, token);
  if (!row || effectiveStatus(row) !== "pending") throw refuse(lang, "token", MESSAGES.linkClosed);
  const user = await db
    .prepare(
      "SELECT u.id, u.name, u.email, u.verified_at, s.user_id AS staff FROM users u LEFT JOIN staff s ON s.user_id = u.id WHERE u.id = ?",
    )
    .bind(userId)
    .first<{ id: number; name: string; email: string | null; verified_at: string | null; staff: number | null }>();
  if (!user) throw new BackendError(401, "Unauthenticated.");
  if ((user.email ?? "").toLowerCase() !== row.email.toLowerCase()) throw refuse(lang, "email", MESSAGES.wrongAccount);
  if (user.verified_at === null) throw refuse(lang, "verified", MESSAGES.unverified);
  if (user.staff !== null) throw refuse(lang, "staff", MESSAGES.staffAlready);
  const email = user.email!;
  const [closed, seated] = await db.batch([
    db
      .prepare(
        `UPDATE staff_invitations SET status = 'accepted', accepted_by = ?, accepted_at = ${NOW}, updated_at = ${NOW}
         WHERE token_hash = ? AND status = 'pending' AND expires_at > ${NOW}`,
      )
      .bind(user.id, row.token_hash),
    // Only when the invitation was still open (the statement just before changed a row).
    db
      .prepare(
        "INSERT INTO staff (user_id, role, email) SELECT ?, ?, ? WHERE changes() > 0 ON CONFLICT (user_id) DO NOTHING",
      )
      .bind(user.id, row.role, email),
    auditStatement(
      db,
      { user_id: user.id, email },
      "staff.invite_accept",
      "staff",
      user.id,
      null,
      { email, role: row.role },
      { onlyIfChanged: true },
    ),
    // A change of email asked for before the seat would wait to be confirmed: dropped, as when
    // an owner adds the account (routes/admin/staff.ts).
    db.prepare("UPDATE users SET pending_email = NULL WHERE id = ? AND changes() > 0").bind(user.id),
  ]);
  if (!closed!.meta.changes) throw refuse(lang, "token", MESSAGES.linkClosed);
  if (!seated!.meta.changes) throw refuse(lang, "staff", MESSAGES.staffAlready);
  return { role: row.role };
}

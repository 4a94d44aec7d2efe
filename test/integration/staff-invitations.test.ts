// Staff invitations: an owner invites an email with a role, and only the holder of that verified
// inbox, signed in to its account, takes the seat, once. Each test is named after what it stops.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { INVITATION_FRAGMENT_KEY } from "../../contract/staff-invitations";
import { sha256Hex } from "../../contract/server/tokens";
import { call, newUser, newVerifiedUser, type Shopper } from "../support/commerce";
import { newStaff, type Staff } from "../support/console";

/** The newest invitation email to `to`: its language, subject, text and the token its link carries. */
async function invitationMail(to: string) {
  const row = await env.DB.prepare(
    "SELECT lang, subject, body FROM dev_outbox WHERE recipient = ? AND purpose = 'staff-invitation' ORDER BY id DESC LIMIT 1",
  )
    .bind(to)
    .first<{ lang: string; subject: string; body: string }>();
  if (!row) throw new Error(`no invitation mail to ${to}`);
  const link = new RegExp(`https?://\\S+/(en|ar)/staff-invitation#${INVITATION_FRAGMENT_KEY}=([A-Za-z0-9_-]+)`).exec(
    row.body,
  );
  if (!link) throw new Error(`no link in ${row.body}`);
  return { ...row, linkLang: link[1], token: link[2]! };
}

const invite = (owner: Staff, body: Record<string, unknown>) => call(owner, "POST", "/admin/staff/invitations", body);
const lookup = (token: string) => call(null, "POST", "/client/staff-invitation", { token });
const accept = (who: Shopper, token: string) => call(who, "POST", "/client/staff-invitation/accept", { token });
const seatOf = (userId: number | null) =>
  env.DB.prepare("SELECT role, email FROM staff WHERE user_id = ?")
    .bind(userId)
    .first<{ role: string; email: string }>();

/** An owner and the verified account of the person they invite, invited as `role`. */
async function invited(role = "manager", lang: "en" | "ar" = "en") {
  const owner = await newStaff("owner", lang);
  const invitee = await newVerifiedUser();
  const sent = await invite(owner, { email: invitee.email.toUpperCase(), role, name: "Noura Saleh" });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return { owner, invitee, invitation: sent.body.data, mail: await invitationMail(invitee.email) };
}

describe("staff invitations", () => {
  it("the link's token is stored only as its hash, and the email goes in the inviter's console language", async () => {
    const { invitation, mail } = await invited("support", "ar");
    expect(mail.lang).toBe("ar");
    expect(mail.linkLang).toBe("ar");
    expect(mail.subject).toContain("دعوة");
    expect(mail.body).toContain("دعم العملاء");
    const row = await env.DB.prepare("SELECT * FROM staff_invitations WHERE id = ?")
      .bind(invitation.id)
      .first<Record<string, unknown>>();
    expect(row!.token_hash).toBe(await sha256Hex(mail.token));
    // Nowhere in the invitation's row nor in the audit log is the token itself.
    expect(JSON.stringify(row)).not.toContain(mail.token);
    const audit = await env.DB.prepare("SELECT * FROM audit_log WHERE entity = 'staff_invitation'").all();
    expect(JSON.stringify(audit.results)).not.toContain(mail.token);
    expect(row!.email).toBe(String(row!.email).toLowerCase());
  });

  it("the invitee, signed in to the verified account of the invited email, takes the seat once, and it is audited", async () => {
    const { owner, invitee, invitation, mail } = await invited("manager");
    const seen = await lookup(mail.token);
    expect(seen.body.data).toMatchObject({ state: "pending", role: "manager" });
    // The link holder sees the address masked, never in full.
    expect(seen.body.data.email).not.toBe(invitee.email);

    const taken = await accept(invitee, mail.token);
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(await seatOf(invitee.userId)).toEqual({ role: "manager", email: invitee.email });

    // Single use: the same link again, even by the same account, opens nothing.
    const again = await accept(invitee, mail.token);
    expect(again.status).toBe(422);
    expect(Object.keys(again.body.errors ?? {})).toEqual(["token"]);
    expect((await lookup(mail.token)).body.data).toEqual({ state: "accepted" });
    const listed = await call(owner, "GET", "/admin/staff/invitations");
    expect(listed.body.data.map((i: { id: number }) => i.id)).not.toContain(invitation.id);

    const audit = await env.DB.prepare(
      "SELECT action, entity, entity_id, staff_user_id FROM audit_log WHERE (entity = 'staff_invitation' AND entity_id = ?) OR (action = 'staff.invite_accept' AND entity_id = ?) ORDER BY id",
    )
      .bind(String(invitation.id), String(invitee.userId))
      .all();
    expect(audit.results).toEqual([
      {
        action: "staff.invite",
        entity: "staff_invitation",
        entity_id: String(invitation.id),
        staff_user_id: owner.userId,
      },
      {
        action: "staff.invite_accept",
        entity: "staff",
        entity_id: String(invitee.userId),
        staff_user_id: invitee.userId,
      },
    ]);
  });

  it("an account of another email, or of the invited email never verified, cannot take the seat", async () => {
    const owner = await newStaff("owner");
    const stranger = await newVerifiedUser();
    // A squatter registered the future hire's address first and never proved the inbox.
    const squatter = await newUser();
    expect((await invite(owner, { email: squatter.email, role: "owner" })).status).toBe(201);
    const { token } = await invitationMail(squatter.email);

    const wrong = await accept(stranger, token);
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.errors ?? {})).toEqual(["email"]);
    // The refusal names no address: nobody learns who was invited.
    expect(JSON.stringify(wrong.body)).not.toContain(squatter.email);

    const unverified = await accept(squatter, token);
    expect(unverified.status).toBe(422);
    expect(Object.keys(unverified.body.errors ?? {})).toEqual(["verified"]);
    expect(await seatOf(squatter.userId)).toBeNull();
    expect(await seatOf(stranger.userId)).toBeNull();

    // Signed out: asked to sign in, nothing else.
    expect((await call(null, "POST", "/client/staff-invitation/accept", { token })).status).toBe(401);
    // The invitation is still open for the real owner of the inbox.
    expect((await lookup(token)).body.data.state).toBe("pending");
  });

  it("an expired link opens nothing, and resending one gives a new link that works", async () => {
    const { owner, invitee, invitation, mail } = await invited("support");
    await env.DB.prepare("UPDATE staff_invitations SET expires_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(invitation.id)
      .run();
    expect((await lookup(mail.token)).body.data).toEqual({ state: "expired" });
    const late = await accept(invitee, mail.token);
    expect(late.status).toBe(422);
    expect(Object.keys(late.body.errors ?? {})).toEqual(["token"]);
    const listed = await call(owner, "GET", "/admin/staff/invitations");
    expect(listed.body.data.find((i: { id: number }) => i.id === invitation.id)).toMatchObject({ status: "expired" });

    const resent = await call(owner, "POST", `/admin/staff/invitations/${invitation.id}/resend`);
    expect(resent.status).toBe(200);
    const fresh = await invitationMail(invitee.email);
    expect(fresh.token).not.toBe(mail.token);
    expect((await accept(invitee, fresh.token)).status).toBe(200);
    expect(await seatOf(invitee.userId)).toMatchObject({ role: "support" });
  });

  it("resending kills the old link, and revoking kills the current one; both audited", async () => {
    const { owner, invitee, invitation, mail } = await invited("manager");
    expect((await call(owner, "POST", `/admin/staff/invitations/${invitation.id}/resend`)).status).toBe(200);
    const second = await invitationMail(invitee.email);
    expect((await lookup(mail.token)).body.data).toEqual({ state: "invalid" });
    const old = await accept(invitee, mail.token);
    expect(old.status).toBe(422);
    expect(Object.keys(old.body.errors ?? {})).toEqual(["token"]);

    expect((await call(owner, "DELETE", `/admin/staff/invitations/${invitation.id}`)).status).toBe(200);
    expect((await lookup(second.token)).body.data).toEqual({ state: "revoked" });
    expect((await accept(invitee, second.token)).status).toBe(422);
    expect(await seatOf(invitee.userId)).toBeNull();
    // A revoked invitation cannot be revived by a resend.
    expect((await call(owner, "POST", `/admin/staff/invitations/${invitation.id}/resend`)).status).toBe(422);

    const actions = await env.DB.prepare(
      "SELECT action FROM audit_log WHERE entity = 'staff_invitation' AND entity_id = ? ORDER BY id",
    )
      .bind(String(invitation.id))
      .all<{ action: string }>();
    expect(actions.results.map((r) => r.action)).toEqual([
      "staff.invite",
      "staff.invite_resend",
      "staff.invite_revoke",
    ]);
  });

  it("a tampered or made-up token opens nothing and is never a server error", async () => {
    const { invitee, mail } = await invited("support");
    const tampered = `${mail.token.slice(0, -1)}${mail.token.endsWith("A") ? "B" : "A"}`;
    for (const token of [tampered, "x", "", "a".repeat(43), "../../etc"]) {
      const seen = await lookup(token);
      expect(seen.status, token).toBe(200);
      expect(seen.body.data).toEqual({ state: "invalid" });
      expect((await accept(invitee, token)).status, token).toBe(422);
    }
    expect((await call(null, "POST", "/client/staff-invitation", { token: 42 })).status).toBe(422);
    expect((await call(null, "POST", "/client/staff-invitation", "nope")).status).toBe(422);
    expect(await seatOf(invitee.userId)).toBeNull();
  });

  it("only owners invite, resend, revoke or list invitations; bad input is a 422 with its field", async () => {
    const [manager, support, owner] = await Promise.all([newStaff("manager"), newStaff("support"), newStaff("owner")]);
    for (const who of [manager, support]) {
      expect((await call(who, "GET", "/admin/staff/invitations")).status).toBe(403);
      expect((await invite(who, { email: "someone@example.com", role: "support" })).status).toBe(403);
      expect((await call(who, "POST", "/admin/staff/invitations/1/resend")).status).toBe(403);
      expect((await call(who, "DELETE", "/admin/staff/invitations/1")).status).toBe(403);
    }
    const bad = await invite(owner, { email: "not-an-email", role: "king", lang: "fr" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual(["email", "lang", "role"]);
    // A staff member's own address, and an address with an open invitation, are refused.
    const taken = await invite(owner, { email: manager.email, role: "support" });
    expect(taken.status).toBe(422);
    expect(Object.keys(taken.body.errors ?? {})).toEqual(["email"]);
    const email = `twice-${Date.now()}@example.com`;
    expect((await invite(owner, { email, role: "support", lang: "en" })).status).toBe(201);
    expect((await invite(owner, { email, role: "manager" })).status).toBe(422);
    expect((await call(owner, "POST", "/admin/staff/invitations/999999/resend")).status).toBe(404);
  });
});

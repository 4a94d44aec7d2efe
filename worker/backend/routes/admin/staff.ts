import { Hono } from "hono";
import * as v from "valibot";
import { STAFF_ROLES, type StaffMember } from "../../../../contract/console";
import type { BackendEnv } from "../../env";
import { BackendError, notFound, ok } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { validate } from "../../../../contract/server/validate";
import { pageOf, listQuerySchema } from "../../services/console/list";
import { currentStaff, staffOnly } from "../../services/console/staff";
import { E164, EMAIL, normalizePhone } from "../../../../contract/inputs";
import { deliver } from "../../services/accounts/accounts";
import { accountsEnv } from "../auth";
import { staffInvitationRoutes } from "./staff-invitations";
import { auditStatement } from "../../services/console/audit-log";
import { msg } from "../../messages";

/** /admin/staff (owners): who works the console, and in which role. Every change is audited. */
export const staffRoutes = new Hono<BackendEnv>();

staffRoutes.use(staffOnly("owner"));

// Invitations by email (the way to add someone new): under the guard above.
staffRoutes.route("/invitations", staffInvitationRoutes);

const SORTS = { created_at: "s.created_at", email: "u.email", role: "s.role", name: "u.name" } as const;

type StaffListRow = Omit<StaffMember, "email_changed" | "verified" | "alert_orders" | "alert_returns"> & {
  verified_at: string | null;
  alert_orders: number;
  alert_returns: number;
};

staffRoutes.get(
  "/",
  // Newest first: whoever was just added is on the first page.
  validate("query", () => v.object(listQuerySchema(["created_at", "email", "role", "name"], { dir: "desc" }))),
  async (c) => {
    const { rows, meta } = await pageOf<StaffListRow>(
      c.env.DB,
      "s.user_id, s.role, s.created_at, u.name, u.email, u.phone, s.email AS staff_email, u.verified_at, s.alert_orders, s.alert_returns",
      "FROM staff s JOIN users u ON u.id = s.user_id",
      [],
      c.req.valid("query"),
      SORTS,
    );
    const members: StaffMember[] = rows.map(({ verified_at, alert_orders, alert_returns, ...row }) => ({
      ...row,
      alert_orders: alert_orders === 1,
      alert_returns: alert_returns === 1,
      // A seat whose account email moved opens no console until an owner confirms the new one.
      email_changed: (row.staff_email ?? "").toLowerCase() !== (row.email ?? "").toLowerCase(),
      verified: verified_at !== null,
    }));
    return ok(c, members, { meta: { ...meta } });
  },
);

const emailSchema = (m: Parameters<Parameters<typeof validate>[1]>[0]) =>
  v.pipe(
    v.string(m.required("email")),
    v.trim(),
    v.toLowerCase(),
    v.nonEmpty(m.required("email")),
    v.regex(EMAIL, m.invalid("email")),
  );

const roleSchema = (m: Parameters<Parameters<typeof validate>[1]>[0]) => v.picklist(STAFF_ROLES, m.invalid("role"));

/**
 * POST /admin/staff {email, role}: makes an existing shop account with a verified email staff at
 * once. The console invites instead (routes/admin/staff-invitations.ts), which asks the person's
 * consent; this stays for scripts and for an owner who already knows the account.
 */
staffRoutes.post(
  "/",
  validate("json", (m) =>
    v.object({
      email: emailSchema(m),
      role: roleSchema(m),
    }),
  ),
  async (c) => {
    const staff = currentStaff(c);
    const { email, role } = c.req.valid("json");
    const lang = c.get("lang");
    const user = await c.env.DB.prepare("SELECT id, name, email, verified_at FROM users WHERE email = ? COLLATE NOCASE")
      .bind(email)
      .first<{ id: number; name: string; email: string; verified_at: string | null }>();
    // Only owners reach this, so naming a missing account here tells nobody outside anything.
    if (!user)
      throw new BackendError(422, say(lang, msg("console.staff.noAccount")), {
        email: [say(lang, msg("console.staff.noAccountRegister"))],
      });
    // Anyone can register any address without proving it: an account that never entered the code
    // sent to its email may be a squatter who registered a future hire's address first. The seat
    // goes only to whoever proved the inbox the owner means.
    if (user.verified_at === null)
      throw new BackendError(422, say(lang, msg("console.staff.unverified")), {
        email: [say(lang, msg("console.staff.unverifiedYet"))],
      });
    const [inserted] = await c.env.DB.batch([
      // The seat is pinned to this email: the console code goes only to it (services/console/staff.ts).
      c.env.DB.prepare(
        "INSERT INTO staff (user_id, role, email) VALUES (?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
      ).bind(user.id, role, user.email),
      auditStatement(
        c.env.DB,
        staff,
        "staff.add",
        "staff",
        user.id,
        null,
        { email: user.email, role },
        { onlyIfChanged: true },
      ),
    ]);
    if (inserted.meta.changes === 0) {
      throw new BackendError(422, say(lang, msg("console.staff.alreadyStaffShort")), {
        email: [say(lang, msg("console.staff.alreadyStaff"))],
      });
    }
    // A change of email asked for before the seat would otherwise wait to be confirmed (it is
    // refused then too: accounts.ts, switchEmail); dropped so no code for it is sent again.
    await c.env.DB.prepare("UPDATE users SET pending_email = NULL WHERE id = ?").bind(user.id).run();
    return ok(c, { user_id: user.id, name: user.name, email: user.email, role }, { status: 201 });
  },
);

function memberId(raw: string | undefined): number {
  return raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : 0;
}

async function member(db: D1Database, userId: number) {
  const row = await db
    .prepare(
      "SELECT s.user_id, s.role, u.email, u.phone, s.email AS staff_email FROM staff s JOIN users u ON u.id = s.user_id WHERE s.user_id = ?",
    )
    .bind(userId)
    .first<{ user_id: number; role: string; email: string; phone: string | null; staff_email: string | null }>();
  if (!row) throw notFound();
  return row;
}

/** Owners cannot demote or remove themselves: a shop must always keep an owner who can sign in. */
function notSelf(c: Parameters<typeof currentStaff>[0], userId: number) {
  if (currentStaff(c).user_id === userId) throw new BackendError(403, say(c.get("lang"), msg("console.staff.ownRole")));
}

/** PUT /admin/staff/:id {role}. */
staffRoutes.put(
  "/:id",
  validate("json", (m) => v.object({ role: roleSchema(m) })),
  async (c) => {
    const userId = memberId(c.req.param("id"));
    const before = await member(c.env.DB, userId);
    notSelf(c, userId);
    const { role } = c.req.valid("json");
    await c.env.DB.batch([
      c.env.DB.prepare(
        "UPDATE staff SET role = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE user_id = ?",
      ).bind(role, userId),
      auditStatement(c.env.DB, currentStaff(c), "staff.role", "staff", userId, { role: before.role }, { role }),
    ]);
    return ok(c, { user_id: userId, role });
  },
);

/**
 * PUT /admin/staff/:id/contact {email, phone?}: an owner sets a staff member's email (and phone),
 * and pins the seat to that email. Staff cannot change either from the shop profile (the console
 * code goes to the email; the phone names the account for a reset by SMS), so this is where they
 * change. The same email confirms a seat whose account email moved some other way. Audited; the
 * member's console sessions end, and the old address is told. `phone` absent: kept; "": removed.
 */
staffRoutes.put(
  "/:id/contact",
  validate("json", (m) =>
    v.object({
      email: emailSchema(m),
      phone: v.optional(
        v.pipe(
          v.string(m.invalid("phone")),
          v.transform(normalizePhone),
          v.check((s) => s === "" || E164.test(s), m.invalid("phone")),
        ),
      ),
    }),
  ),
  async (c) => {
    const userId = memberId(c.req.param("id"));
    const before = await member(c.env.DB, userId);
    const input = c.req.valid("json");
    const email = input.email;
    const phone = input.phone === undefined ? before.phone : input.phone || null;
    const lang = c.get("lang");
    const others = await c.env.DB.prepare(
      "SELECT email, phone FROM users WHERE id != ? AND (email = ? COLLATE NOCASE OR (phone IS NOT NULL AND phone = ?))",
    )
      .bind(userId, email, phone)
      .all<{ email: string | null; phone: string | null }>();
    const takenMessage = say(lang, msg("console.staff.valueTaken"));
    const errors: Record<string, string[]> = {};
    for (const other of others.results) {
      if (other.email?.toLowerCase() === email) errors.email = [takenMessage];
      if (phone !== null && other.phone === phone) errors.phone = [takenMessage];
    }
    if (Object.keys(errors).length) throw new BackendError(422, takenMessage, errors);
    try {
      await c.env.DB.batch([
        c.env.DB.prepare(
          "UPDATE users SET email = ?, phone = ?, pending_email = NULL, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
        ).bind(email, phone, userId),
        c.env.DB.prepare(
          "UPDATE staff SET email = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE user_id = ?",
        ).bind(email, userId),
        c.env.DB.prepare("DELETE FROM staff_sessions WHERE user_id = ?").bind(userId),
        auditStatement(
          c.env.DB,
          currentStaff(c),
          "staff.contact",
          "staff",
          userId,
          { email: before.email, phone: before.phone, staff_email: before.staff_email },
          { email, phone, staff_email: email },
        ),
      ]);
    } catch (error) {
      // Another account took the address or the number between the check and the write.
      if (/UNIQUE constraint failed/i.test(String(error))) throw new BackendError(422, takenMessage);
      throw error;
    }
    if (before.email && before.email.toLowerCase() !== email)
      await deliver(accountsEnv(c), before.email, "email", "email-changed", "", lang);
    return ok(c, { user_id: userId, email, phone, staff_email: email });
  },
);

/**
 * PUT /admin/staff/:id/alerts {orders, returns}: whether the member is emailed about each new paid
 * order and each new return request (services/messages/notifications.ts, staffAlertStatement), in the
 * language of the console the owner set it from. Audited.
 */
staffRoutes.put(
  "/:id/alerts",
  validate("json", () => v.object({ orders: v.boolean(), returns: v.boolean() })),
  async (c) => {
    const userId = memberId(c.req.param("id"));
    const before = await c.env.DB.prepare("SELECT alert_orders, alert_returns, alert_lang FROM staff WHERE user_id = ?")
      .bind(userId)
      .first<{ alert_orders: number; alert_returns: number; alert_lang: string }>();
    if (!before) throw notFound();
    const { orders, returns } = c.req.valid("json");
    const lang = c.get("lang");
    await c.env.DB.batch([
      c.env.DB.prepare(
        "UPDATE staff SET alert_orders = ?, alert_returns = ?, alert_lang = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE user_id = ?",
      ).bind(orders ? 1 : 0, returns ? 1 : 0, lang, userId),
      auditStatement(
        c.env.DB,
        currentStaff(c),
        "staff.alerts",
        "staff",
        userId,
        { orders: before.alert_orders === 1, returns: before.alert_returns === 1, lang: before.alert_lang },
        { orders, returns, lang },
        { onlyIfChanged: true },
      ),
    ]);
    return ok(c, { user_id: userId, alert_orders: orders, alert_returns: returns });
  },
);

/** DELETE /admin/staff/:id: back to a plain shop account; their console sessions end. */
staffRoutes.delete("/:id", async (c) => {
  const userId = memberId(c.req.param("id"));
  const before = await member(c.env.DB, userId);
  notSelf(c, userId);
  await c.env.DB.batch([
    c.env.DB.prepare("DELETE FROM staff_sessions WHERE user_id = ?").bind(userId),
    c.env.DB.prepare("DELETE FROM staff WHERE user_id = ?").bind(userId),
    auditStatement(
      c.env.DB,
      currentStaff(c),
      "staff.remove",
      "staff",
      userId,
      { email: before.email, role: before.role },
      null,
    ),
  ]);
  return ok(c, null);
});

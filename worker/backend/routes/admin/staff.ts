import { Hono } from "hono";
import * as v from "valibot";
import { STAFF_ROLES, type StaffMember } from "../../../../contract/console";
import type { BackendEnv } from "../../env";
import { BackendError, notFound, ok } from "../../http";
import { say } from "../../../lib/i18n";
import { validate } from "../../../lib/validate";
import { pageOf, listQuerySchema } from "../../services/console-list";
import { auditStatement, currentStaff, staffOnly } from "../../services/staff";
import { EMAIL } from "../../../../contract/inputs";

/** /admin/staff (owners): who works the console, and in which role. Every change is audited. */
export const staffRoutes = new Hono<BackendEnv>();

staffRoutes.use(staffOnly("owner"));

const SORTS = { created_at: "s.created_at", email: "u.email", role: "s.role", name: "u.name" } as const;

staffRoutes.get(
  "/",
  // Newest first: whoever was just added is on the first page.
  validate("query", () => v.object(listQuerySchema(["created_at", "email", "role", "name"], { dir: "desc" }))),
  async (c) => {
    const { rows, meta } = await pageOf<StaffMember>(
      c.env.DB,
      "s.user_id, s.role, s.created_at, u.name, u.email",
      "FROM staff s JOIN users u ON u.id = s.user_id",
      [],
      c.req.valid("query"),
      SORTS,
    );
    return ok(c, rows, { meta: { ...meta } });
  },
);

const roleSchema = (m: Parameters<Parameters<typeof validate>[1]>[0]) => v.picklist(STAFF_ROLES, m.invalid("role"));

/** POST /admin/staff {email, role}: makes an existing shop account staff. */
staffRoutes.post(
  "/",
  validate("json", (m) =>
    v.object({
      email: v.pipe(
        v.string(m.required("email")),
        v.trim(),
        v.nonEmpty(m.required("email")),
        v.regex(EMAIL, m.invalid("email")),
      ),
      role: roleSchema(m),
    }),
  ),
  async (c) => {
    const staff = currentStaff(c);
    const { email, role } = c.req.valid("json");
    const lang = c.get("lang");
    const user = await c.env.DB.prepare("SELECT id, name, email FROM users WHERE email = ? COLLATE NOCASE")
      .bind(email)
      .first<{ id: number; name: string; email: string }>();
    // Only owners reach this, so naming a missing account here tells nobody outside anything.
    if (!user)
      throw new BackendError(422, say(lang, { en: "No account uses this email.", ar: "لا يوجد حساب بهذا البريد." }), {
        email: [
          say(lang, {
            en: "No account uses this email: they must register in the shop first.",
            ar: "لا يوجد حساب بهذا البريد: يجب أن يسجّل في المتجر أولًا.",
          }),
        ],
      });
    const [inserted] = await c.env.DB.batch([
      c.env.DB.prepare("INSERT INTO staff (user_id, role) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING").bind(
        user.id,
        role,
      ),
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
      throw new BackendError(422, say(lang, { en: "Already on the staff.", ar: "عضو في الفريق بالفعل." }), {
        email: [say(lang, { en: "This account is already on the staff.", ar: "هذا الحساب ضمن الفريق بالفعل." })],
      });
    }
    return ok(c, { user_id: user.id, name: user.name, email: user.email, role }, { status: 201 });
  },
);

function memberId(raw: string | undefined): number {
  return raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : 0;
}

async function member(db: D1Database, userId: number) {
  const row = await db
    .prepare("SELECT s.user_id, s.role, u.email FROM staff s JOIN users u ON u.id = s.user_id WHERE s.user_id = ?")
    .bind(userId)
    .first<{ user_id: number; role: string; email: string }>();
  if (!row) throw notFound();
  return row;
}

/** Owners cannot demote or remove themselves: a shop must always keep an owner who can sign in. */
function notSelf(c: Parameters<typeof currentStaff>[0], userId: number) {
  if (currentStaff(c).user_id === userId)
    throw new BackendError(
      403,
      say(c.get("lang"), {
        en: "You cannot change your own role. Ask another owner.",
        ar: "لا يمكنك تغيير دورك بنفسك. اطلب ذلك من مالك آخر.",
      }),
    );
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

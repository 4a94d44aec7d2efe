import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, newGuest, newUser } from "../support/commerce";
import { newPendingStaff, newStaff } from "../support/console";
import { issueCode } from "../../worker/backend/services/accounts/otp";

describe("signing in to the console", () => {
  it("a shopper and a guest find no console at all: 404, as for an unknown path", async () => {
    const [shopper, guest] = await Promise.all([newUser(), newGuest()]);
    for (const who of [shopper, guest, null]) {
      expect((await call(who, "GET", "/admin/session")).status).toBe(404);
      expect((await call(who, "POST", "/admin/session/code")).status).toBe(404);
      expect((await call(who, "GET", "/admin/staff")).status).toBe(404);
    }
  });

  it("staff signed in to the shop must still enter the code sent to their email", async () => {
    const staff = await newPendingStaff("manager");
    const me = await call(staff, "GET", "/admin/session");
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ role: "manager", elevated: false, via: null });
    // Nothing else of the console answers before the code.
    expect((await call(staff, "GET", "/admin/audit")).status).toBe(401);

    const sent = await call(staff, "POST", "/admin/session/code");
    expect(sent.status).toBe(200);
    const outbox = await env.DB.prepare("SELECT purpose FROM dev_outbox WHERE recipient = ? ORDER BY id DESC LIMIT 1")
      .bind(staff.email)
      .first<{ purpose: string }>();
    expect(outbox?.purpose).toBe("staff");

    const wrong = await call(staff, "POST", "/admin/session", { code: "000000" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors?.code?.[0]).toBeTruthy();
    expect((await call(staff, "GET", "/admin/session")).body.data.elevated).toBe(false);

    const issued = await issueCode(env, staff.userId, "staff", false);
    if (!issued.issued) throw new Error("no code");
    const opened = await call(staff, "POST", "/admin/session", { code: issued.code });
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({ elevated: true, via: "code" });
    // Single use.
    expect((await call(staff, "POST", "/admin/session", { code: issued.code })).status).toBe(422);
  });

  it("signing out of the console closes it; the shop sign-in stays", async () => {
    const staff = await newStaff("support");
    expect((await call(staff, "GET", "/admin/session")).body.data.elevated).toBe(true);
    expect((await call(staff, "DELETE", "/admin/session")).status).toBe(200);
    expect((await call(staff, "GET", "/admin/session")).body.data.elevated).toBe(false);
  });

  it("a code in the wrong form is a 422 with the field named, in Arabic too", async () => {
    const staff = await newPendingStaff("support", "ar");
    const bad = await call(staff, "POST", "/admin/session", { code: "12ab" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.code?.[0]).toBe("الرمز غير صالح.");
  });
});

describe("staff and the audit log (owners)", () => {
  it("an owner adds a shop account to the staff, changes its role and removes it; each step is in the audit log", async () => {
    const owner = await newStaff("owner");
    const recruit = await newUser();
    // Only an account that proved its email takes a seat (console-factor.test.ts).
    await env.DB.prepare("UPDATE users SET verified_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?")
      .bind(recruit.userId)
      .run();
    const added = await call(owner, "POST", "/admin/staff", { email: recruit.email, role: "support" });
    expect(added.status).toBe(201);
    expect((await call(owner, "POST", "/admin/staff", { email: recruit.email, role: "support" })).status).toBe(422);
    expect((await call(owner, "PUT", `/admin/staff/${recruit.userId}`, { role: "manager" })).status).toBe(200);
    expect((await call(owner, "DELETE", `/admin/staff/${recruit.userId}`)).status).toBe(200);
    const audit = await call(
      owner,
      "GET",
      `/admin/audit?entity=staff&entity_id=${recruit.userId}&sort=created_at&dir=asc`,
    );
    expect(audit.status).toBe(200);
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual([
      "staff.add",
      "staff.role",
      "staff.remove",
    ]);
    expect(audit.body.data[1]).toMatchObject({
      staff_email: owner.email,
      before: { role: "support" },
      after: { role: "manager" },
    });
  });

  it("an owner cannot change their own role, and no one else sees the staff or the audit log", async () => {
    const owner = await newStaff("owner");
    expect((await call(owner, "PUT", `/admin/staff/${owner.userId}`, { role: "support" })).status).toBe(403);
    for (const role of ["manager", "support"] as const) {
      const other = await newStaff(role);
      expect((await call(other, "GET", "/admin/staff")).status).toBe(403);
      expect((await call(other, "GET", "/admin/audit")).status).toBe(403);
    }
  });

  it("a list is sorted and paged on the server, and refuses a column it does not sort by", async () => {
    const owner = await newStaff("owner");
    const page = await call(owner, "GET", "/admin/staff?per_page=1&page=1&sort=email&dir=asc");
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.meta).toMatchObject({ page: 1, per_page: 1, sort: "email", dir: "asc" });
    expect((await call(owner, "GET", "/admin/staff?sort=password_hash")).status).toBe(422);
  });
});

// Fixtures for the operator console's tests: staff members of each role, signed in to the shop
// and through the console's second step (a real code, through the real API).
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { StaffRole } from "../../contract/console";
import { issueCode } from "../../worker/backend/services/otp";
import { call, newUser, type Shopper } from "./commerce";

export type Staff = Shopper & { role: StaffRole; userId: number };

/** A staff member of `role`, signed in to the shop, without the console code yet. */
export async function newPendingStaff(role: StaffRole, lang: "en" | "ar" = "en"): Promise<Staff> {
  const user = await newUser(lang);
  await env.DB.prepare("INSERT INTO staff (user_id, role) VALUES (?, ?)").bind(user.userId, role).run();
  return { ...user, userId: user.userId!, role };
}

/** A staff member of `role` with the console open: the code issued and entered through /admin/session. */
export async function newStaff(role: StaffRole, lang: "en" | "ar" = "en"): Promise<Staff> {
  const staff = await newPendingStaff(role, lang);
  const issued = await issueCode(env, staff.userId, "staff", false);
  if (!issued.issued) throw new Error("no code");
  const opened = await call(staff, "POST", "/admin/session", { code: issued.code });
  expect(opened.status).toBe(200);
  return staff;
}

/** One of each role, plus a shopper and a guest-less anonymous caller, for access matrices. */
export async function consoleCast() {
  const [owner, manager, support, shopper] = await Promise.all([
    newStaff("owner"),
    newStaff("manager"),
    newStaff("support"),
    newUser(),
  ]);
  return { owner, manager, support, shopper };
}

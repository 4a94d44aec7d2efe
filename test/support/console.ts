// Fixtures for the operator console's tests: staff members of each role, signed in to the shop
// and through the console's second step (a real code, through the real API).
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { roleAtLeast, type StaffRole } from "../../contract/console";
import { backendApp } from "../../worker/backend";
import { issueCode } from "../../worker/backend/services/accounts/otp";
import type { StaffGuard } from "../../worker/backend/services/console/staff";
import { call, newUser, type Shopper } from "./commerce";

export type Staff = Shopper & { role: StaffRole; userId: number };

/** A staff member of `role`, signed in to the shop, without the console code yet. */
export async function newPendingStaff(role: StaffRole, lang: "en" | "ar" = "en"): Promise<Staff> {
  const user = await newUser(lang);
  // Pinned to the account's email, as an owner's adding does (the console code goes only there).
  await env.DB.prepare("INSERT INTO staff (user_id, role, email) VALUES (?, ?, ?)")
    .bind(user.userId, role, user.email)
    .run();
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

/**
 * Every console API route, read from the backend's own route table, with the role its guards
 * demand (the access matrix and the fuzz suite walk these, so a route added later is covered).
 */
export interface Endpoint {
  method: string;
  path: string;
  minimum: StaffRole;
  elevated: boolean;
}

type RouteEntry = { method: string; path: string; handler: unknown };

const guardOf = (handler: unknown): StaffGuard["staffGuard"] | undefined => (handler as Partial<StaffGuard>).staffGuard;

/** Whether a middleware's path (hono's, with a trailing `*`) covers an endpoint's path. */
const covers = (pattern: string, path: string) =>
  pattern === path || (pattern.endsWith("/*") && (path + "/").startsWith(pattern.slice(0, -1)));

export function consoleEndpoints(): { endpoints: Endpoint[]; unguarded: string[] } {
  const entries = (backendApp.routes as RouteEntry[]).filter((r) => r.path.startsWith("/admin"));
  const guards = entries.filter((r) => guardOf(r.handler));
  const handlers = entries.filter((r) => !guardOf(r.handler) && r.method !== "ALL");
  const seen = new Set<string>();
  const endpoints: Endpoint[] = [];
  const unguarded: string[] = [];
  for (const h of handlers) {
    const key = `${h.method} ${h.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const applying = guards
      .filter((g) => (g.method === "ALL" || g.method === h.method) && covers(g.path, h.path))
      .map((g) => guardOf(g.handler)!);
    if (applying.length === 0) {
      unguarded.push(key);
      continue;
    }
    const minimum = applying.map((g) => g.minimum).reduce((a, b) => (roleAtLeast(a, b) ? a : b));
    endpoints.push({ method: h.method, path: h.path, minimum, elevated: applying.some((g) => g.elevated) });
  }
  return { endpoints, unguarded };
}

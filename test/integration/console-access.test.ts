import { describe, expect, it } from "vitest";
import { roleAtLeast, STAFF_ROLES } from "../../contract/console";
import { call, newGuest, newUser, type Shopper } from "../support/commerce";
import { consoleEndpoints, newPendingStaff, newStaff, type Endpoint } from "../support/console";

/**
 * The console's authorisation matrix: every console API route, read from the backend's
 * own route table (so a route added later is in the matrix without anyone remembering to add it),
 * called as a stranger, a guest, a shopper, staff without their code, and each staff role. Every
 * route must carry a `staffOnly` guard; strangers, guests and shoppers get 404 everywhere; staff
 * without the code get 401; a role below the route's minimum gets 403; the rest pass the guard.
 */
/** A concrete path: parameters get values no record has, so a write that passes the guard changes nothing. */
const concrete = (path: string) =>
  path
    .replace(/:number\b/g, "SQ-NOSUCH00")
    .replace(/:key\b/g, "no-such-key")
    .replace(/:\w+/g, "999999999");

async function hit(who: Pick<Shopper, "headers"> | null, e: Endpoint) {
  const body = e.method === "GET" || e.method === "DELETE" ? undefined : {};
  return call(who, e.method, concrete(e.path), body);
}

const { endpoints, unguarded } = consoleEndpoints();

describe("the console's authorisation matrix", () => {
  it("every console route is guarded by a role, and the matrix sees them all", () => {
    expect(unguarded).toEqual([]);
    const keys = endpoints.map((e) => `${e.method} ${e.path}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        "GET /admin/session",
        "GET /admin/staff",
        "POST /admin/staff",
        "GET /admin/audit",
        "GET /admin/orders/:number/returns",
        "POST /admin/orders/:number/returns/:id/approve",
        "POST /admin/orders/:number/returns/:id/reject",
        "POST /admin/orders/:number/returns/:id/receive",
        "POST /admin/orders/:number/returns/:id/refund",
      ]),
    );
  });

  it("strangers, guests and shoppers get 404 from every console route, as from a path that does not exist", async () => {
    const [guest, shopper] = await Promise.all([newGuest(), newUser()]);
    for (const e of endpoints)
      for (const who of [null, guest, shopper]) {
        const answer = await hit(who, e);
        expect(
          answer.status,
          `${e.method} ${e.path} as ${who === null ? "stranger" : who.userId ? "shopper" : "guest"}`,
        ).toBe(404);
      }
    expect((await call(shopper, "GET", "/admin/no-such-thing")).status).toBe(404);
  }, 60_000);

  it("staff who have not entered their code reach only the sign-in step", async () => {
    const pending = await newPendingStaff("owner");
    for (const e of endpoints) {
      const answer = await hit(pending, e);
      if (e.elevated) expect(answer.status, `${e.method} ${e.path}`).toBe(401);
      else expect([401, 403, 404], `${e.method} ${e.path}`).not.toContain(answer.status);
    }
  });

  for (const role of STAFF_ROLES) {
    it(`${role}: refused (403) below each route's role, let through at or above it`, async () => {
      for (const e of endpoints) {
        // A fresh member per call: some routes end the caller's own console session.
        const staff = await newStaff(role);
        const answer = await hit(staff, e);
        const label = `${e.method} ${e.path} (needs ${e.minimum}) as ${role}: ${JSON.stringify(answer.body)}`;
        expect(answer.status, label).toBeLessThan(500);
        if (roleAtLeast(role, e.minimum)) expect([401, 403], label).not.toContain(answer.status);
        else expect(answer.status, label).toBe(403);
      }
      // A fresh staff member for each of some 60 routes: 41 s for the manager's on a 2-core
      // machine beside other builds, so twice that and more.
    }, 120_000);
  }
});

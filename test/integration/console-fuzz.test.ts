import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_FIELDS } from "../../contract/console";
import { seedCatalogue } from "../support/catalogue";
import { consoleEndpoints, newStaff, type Staff } from "../support/console";
import { bodyFor, internals, queryFor, segment } from "../support/fuzz";

/**
 * Every console API route (read from the route table) receives malformed input as an owner, who
 * passes every guard, so the handlers themselves are what is fuzzed: broken JSON, wrong types,
 * every console field with hostile values, huge numbers and strings, odd path segments. Whatever
 * comes in: no 5xx, no internals in the answer, and the data stays whole.
 */
const RUNS = 40;
const FIELDS = [...CONSOLE_FIELDS, "email", "code", "q"];
const tally = { requests: 0, byStatus: new Map<number, number>() };
let owner: Staff;

beforeAll(async () => {
  await seedCatalogue(env.DB);
  owner = await newStaff("owner");
});

afterAll(() => {
  console.log(
    `console fuzz: ${tally.requests} requests; statuses ${JSON.stringify(Object.fromEntries(tally.byStatus))}`,
  );
});

// Closing the console session would leave the rest of the run at 401: it is fuzzed last, alone.
const endpoints = consoleEndpoints().endpoints.sort(
  (a, b) =>
    Number(a.method === "DELETE" && a.path === "/admin/session") -
    Number(b.method === "DELETE" && b.path === "/admin/session"),
);

describe("fuzzing every console route with malformed input", () => {
  for (const e of endpoints) {
    it(`${e.method} ${e.path} never answers 5xx or leaks internals`, { timeout: 180_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(
          segment,
          queryFor(e.method === "GET" ? FIELDS : []),
          bodyFor(FIELDS),
          async (seg, query, body) => {
            const path = e.path.replace(
              /:\w+/g,
              () => encodeURIComponent(seg.replace(/[\ud800-\udfff]/g, "\ufffd")) || "x",
            );
            const res = await SELF.fetch(`http://example.com/backend${path}${query ? `?${query}` : ""}`, {
              method: e.method,
              headers: { ...owner.headers, "content-type": "application/json" },
              body: e.method === "GET" || e.method === "HEAD" ? undefined : body,
            });
            const text = await res.text();
            tally.requests += 1;
            tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);
            expect(res.status, `${e.method} ${path}?${query.slice(0, 200)} ${body.slice(0, 200)}`).toBeLessThan(500);
            expect(text).not.toMatch(internals);
          },
        ),
        { numRuns: RUNS },
      );
    });
  }

  it("leaves the data whole: no negative stock, no refund past the total, every account made staff has its audit line", async () => {
    const one = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
    expect(await one("SELECT COUNT(*) AS n FROM products WHERE stock < 0")).toBe(0);
    expect(await one("SELECT COUNT(*) AS n FROM orders WHERE refunded > total")).toBe(0);
    // An account made staff through the console has its audit line (the batch writes both or neither).
    expect(
      await one(
        "SELECT COUNT(*) AS n FROM staff s WHERE s.created_at > (SELECT MIN(created_at) FROM audit_log) AND NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.action = 'staff.add' AND a.entity_id = CAST(s.user_id AS TEXT))",
      ),
    ).toBe(0);
  });
});

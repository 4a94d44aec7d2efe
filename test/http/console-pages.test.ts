import { beforeAll, describe, expect, it } from "vitest";
import { roleAtLeast, STAFF_ROLES, type StaffRole } from "../../contract/console.ts";
import { readManifests } from "../../scripts/lib/bundles.ts";
import { buildDir } from "../../scripts/lib/worker.ts";
import { consoleHttpSession, newStaffAccounts, registerAccount } from "../support/console-browser.ts";
import { buyThroughCheckout, builtWorker } from "../support/http.ts";

/**
 * The console's pages × who asks: a stranger, a shopper, and each staff role, over HTTP
 * against the built worker. Strangers and shoppers get the shop's 404 from every console page (the
 * console is not there for them); staff get the console's own "no access" page (403) from a page
 * their role may not use, and the page from the rest. The table must name every console route of
 * the build.
 */
const base = builtWorker().url;

/** Each console page (its route path; the index has none), a concrete path, and the weakest role that may open it. */
const PAGES: { route: string; path: string | (() => string); role: StaffRole }[] = [
  { route: "", path: "/admin", role: "support" },
  { route: "promo-codes", path: "/admin/promo-codes", role: "manager" },
  { route: "promo-codes/:id", path: "/admin/promo-codes/new", role: "manager" },
  { route: "questions", path: "/admin/questions", role: "manager" },
  { route: "customers", path: "/admin/customers", role: "support" },
  { route: "customers/:id", path: () => `/admin/customers/${shopperId}`, role: "support" },
  { route: "orders", path: "/admin/orders", role: "support" },
  { route: "orders/:number", path: () => `/admin/orders/${orderNumber}`, role: "support" },
  { route: "orders/:number/invoice", path: () => `/admin/orders/${orderNumber}/invoice`, role: "support" },
  { route: "orders/:number/packing-slip", path: () => `/admin/orders/${orderNumber}/packing-slip`, role: "manager" },
  { route: "products", path: "/admin/products", role: "support" },
  { route: "products/new", path: "/admin/products/new", role: "manager" },
  { route: "products/import", path: "/admin/products/import", role: "manager" },
  { route: "products/:id", path: () => `/admin/products/${productId}`, role: "support" },
  { route: "categories", path: "/admin/categories", role: "manager" },
  { route: "categories/:id", path: "/admin/categories/new", role: "manager" },
  { route: "brands", path: "/admin/brands", role: "manager" },
  { route: "brands/:id", path: "/admin/brands/new", role: "manager" },
  { route: "services", path: "/admin/services", role: "manager" },
  { route: "services/:id", path: "/admin/services/new", role: "manager" },
  { route: "pages", path: "/admin/pages", role: "manager" },
  { route: "pages/:id", path: "/admin/pages/new", role: "manager" },
  { route: "inventory", path: "/admin/inventory", role: "manager" },
  { route: "staff", path: "/admin/staff", role: "owner" },
  { route: "audit", path: "/admin/audit", role: "owner" },
  { route: "settings", path: "/admin/settings", role: "owner" },
  { route: "field-data", path: "/admin/field-data", role: "support" },
  { route: "reports", path: "/admin/reports", role: "manager" },
  { route: "shipments/remittances", path: "/admin/shipments/remittances", role: "manager" },
  { route: "einvoicing", path: "/admin/einvoicing", role: "manager" },
  { route: "reviews", path: "/admin/reviews", role: "support" },
];
/** Routes that are not pages of their own in this matrix, and why. */
const ASIDE: Record<string, string> = {
  ":locale/admin": "the layout; its index (the dashboard) is the first page above",
  "sign-in": "the code step: staff with the console open are sent on to /admin (tested below)",
  "*": "an unknown console path: 404 for everyone (tested below)",
  "orders/:number/credit-notes/:id": "needs a refund first: test/e2e/console-documents.e2e.ts opens it",
  "orders/:number/debit-notes/:id": "needs a debit note first: test/integration/einvoicing.test.ts reads its API",
  "shipments/:document": "a PDF, not a page: tested below",
  "einvoicing/documents/:id/xml": "a document's XML, not a page: test/e2e/console-einvoicing.e2e.ts opens one",
};

type Visitor = "stranger" | "shopper" | StaffRole;
const cookies = {} as Record<Visitor, string>;
let shopperId = 0;
let orderNumber = "";
let productId = 0;

beforeAll(async () => {
  cookies.stranger = "";
  const shopper = `pages-shopper-${Date.now()}@example.com`;
  await registerAccount(base, shopper);
  const session = await consoleHttpSession(base, shopper);
  cookies.shopper = session.cookie;
  shopperId = session.userId;
  // A product of one variant: the add names the product alone.
  const product = (
    (await (await fetch(`${base}/backend/products?per_page=12&in_stock=1`)).json()) as {
      data: { id: number; variant_count?: number }[];
    }
  ).data.find((p) => (p.variant_count ?? 1) === 1)!.id;
  productId = product;
  const order = await buyThroughCheckout(base, product, 1, "10.77.1.1");
  await order.pay();
  orderNumber = order.number;
  const staff = await newStaffAccounts(base, Object.fromEntries(STAFF_ROLES.map((role) => [`pages-${role}`, role])));
  for (const role of STAFF_ROLES) cookies[role] = (await consoleHttpSession(base, staff[`pages-${role}`])).cookie;
}, 120_000);

const get = (path: string, who: Visitor) =>
  fetch(`${base}${path}`, { headers: cookies[who] ? { cookie: cookies[who] } : {}, redirect: "manual" });

describe("the console's pages and who may open them", () => {
  it("the table names every console route of the build", () => {
    const { router } = readManifests(buildDir);
    const consoleRoutes = Object.values(router.routes)
      .filter((r) => r.id.startsWith("routes/admin/") || r.id.startsWith("admin-"))
      .map((r) => r.path ?? "");
    const named = new Set([...PAGES.map((p) => p.route), ...Object.keys(ASIDE)]);
    for (const path of consoleRoutes) expect(named.has(path), `console route "${path}" is in the matrix`).toBe(true);
  });

  for (const locale of ["en", "ar"] as const)
    for (const page of PAGES)
      it(`/${locale}/${page.route || "admin"}: 404 for strangers and shoppers, no access below ${page.role}; open to the rest`, async () => {
        const path = typeof page.path === "string" ? page.path : page.path();
        for (const who of ["stranger", "shopper", ...STAFF_ROLES] as Visitor[]) {
          const res = await get(`/${locale}${path}`, who);
          const staff = who !== "stranger" && who !== "shopper";
          const allowed = staff && roleAtLeast(who, page.role);
          expect(res.status, `${path} as ${who}`).toBe(allowed ? 200 : staff ? 403 : 404);
          const html = await res.text();
          if (staff) expect(html).toContain('class="console"');
          else expect(html).not.toContain('class="console"');
          if (staff && !allowed) expect(html, `${path} as ${who}`).toContain('data-console-refusal="noAccess"');
          if (allowed) expect(html).not.toContain("data-console-refusal");
        }
      });

  it("the code step sends staff with the console open on to the dashboard, and is a 404 for others", async () => {
    expect((await get("/en/admin/sign-in", "owner")).headers.get("location")).toBe("/en/admin");
    expect((await get("/en/admin/sign-in", "shopper")).status).toBe(404);
    expect((await get("/en/admin/sign-in", "stranger")).status).toBe(404);
  });

  it("an unknown console path is a 404 for everyone, staff included", async () => {
    for (const who of ["stranger", "shopper", "owner"] as Visitor[])
      expect((await get("/en/admin/no-such-page", who)).status).toBe(404);
  });

  it("shipping documents open for managers and owners with their session, for no one else", async () => {
    const path = `/en/admin/shipments/pick-list.pdf?orders=${orderNumber}`;
    for (const who of ["stranger", "shopper"] as Visitor[]) {
      const res = await get(path, who);
      expect(res.status, who).toBe(404);
      expect(await res.text()).not.toContain('class="console"');
    }
    expect((await get(path, "support")).status).toBe(403);
    for (const who of ["manager", "owner"] as Visitor[]) {
      const res = await get(path, who);
      // The backend's PDF, or its words while it cannot render one: never the console's pages.
      expect(res.headers.get("content-type"), who).toMatch(/^(application\/pdf|text\/plain)/);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      if (res.status !== 200) expect(res.status).not.toBe(401);
    }
    expect((await get("/en/admin/shipments/other.pdf", "owner")).status).toBe(404);
  });

  it("console pages are never stored by a cache: private, no-store", async () => {
    expect((await get("/en/admin", "owner")).headers.get("cache-control")).toBe("private, no-store");
  });
});

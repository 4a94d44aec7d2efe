import { shipmentsRoutes } from "./shipments";
import { einvoicingRoutes } from "./einvoicing";
import { Hono } from "hono";
import type { BackendEnv } from "../../env";
import { auditRoutes } from "./audit";
import { catalogueRoutes } from "./catalogue";
import { contentRoutes } from "./content";
import { customersRoutes } from "./customers";
import { dashboardRoutes } from "./dashboard";
import { inventoryRoutes } from "./inventory";
import { ordersRoutes } from "./orders";
import { reportsRoutes } from "./reports";
import { returnsRoutes } from "./returns";
import { reviewsRoutes } from "./reviews";
import { rumRoutes } from "./rum";
import { promosRoutes } from "./promos";
import { sessionRoutes } from "./session";
import { settingsRoutes } from "./settings";
import { staffRoutes } from "./staff";

/**
 * The operator console's API, mounted at /backend/admin. Every route is guarded by
 * `staffOnly(role)` (services/console/staff.ts): anyone who is not staff gets 404 from all of them, as
 * from an unknown path; staff whose role is too weak get 403. test/integration/console-access.test.ts
 * walks every route registered here against every role.
 */
export const adminRoutes = new Hono<BackendEnv>();

adminRoutes.route("/session", sessionRoutes);
adminRoutes.route("/staff", staffRoutes);
adminRoutes.route("/audit", auditRoutes);
adminRoutes.route("/settings", settingsRoutes);
adminRoutes.route("/rum", rumRoutes);
adminRoutes.route("/", dashboardRoutes);
adminRoutes.route("/", catalogueRoutes);
adminRoutes.route("/", contentRoutes);
adminRoutes.route("/", inventoryRoutes);
adminRoutes.route("/", shipmentsRoutes);
adminRoutes.route("/orders", ordersRoutes);
adminRoutes.route("/orders", returnsRoutes);
adminRoutes.route("/promo-codes", promosRoutes);
adminRoutes.route("/customers", customersRoutes);
adminRoutes.route("/einvoicing", einvoicingRoutes);
adminRoutes.route("/reports", reportsRoutes);
adminRoutes.route("/reviews", reviewsRoutes);

// An unknown console path is the same 404 for everyone.
adminRoutes.all("*", (c) => c.json({ message: "Not found" }, 404));

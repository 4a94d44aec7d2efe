import { flushShopperMessages } from "../../services/messages/shopper-messages";
import { Hono } from "hono";
import * as v from "valibot";
import {
  ADJUSTMENT_SORTS,
  LEDGER_REASONS,
  LOW_STOCK_SORTS,
  adjustmentInput,
} from "../../../../contract/console-content";
import type { BackendEnv } from "../../env";
import { ok } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { validate } from "../../../../contract/server/validate";
import { queryInt } from "../../validate";
import { listQuerySchema } from "../../services/console/list";
import { adjustStock, findStockProducts, listAdjustments, lowStock } from "../../services/console/inventory";
import { currentStaff, staffOnly } from "../../services/console/staff";
import { msg } from "../../messages";
import { STOCK_ALERT_DEMAND_SORTS } from "../../../../contract/stock-alerts";
import { stockAlertDemand } from "../../services/stock-alerts/demand";

/**
 * /admin/inventory (managers and owners, reads included: stock levels and the ledger are the
 * people who order and count stock's business; support answers customers from the orders).
 * The ledger lists every change of stock: staff's adjustments and the orders' sales and releases.
 */
export const inventoryRoutes = new Hono<BackendEnv>();

inventoryRoutes.use("/inventory/*", staffOnly("manager"));

inventoryRoutes.get(
  "/inventory/adjustments",
  validate("query", () =>
    v.object({
      ...listQuerySchema(ADJUSTMENT_SORTS),
      product_id: v.optional(queryInt(1, 999_999_999_999)),
      reason: v.optional(v.picklist(LEDGER_REASONS, "Reason is not one of the choices.")),
    }),
  ),
  async (c) => {
    const { rows, meta } = await listAdjustments(c.env.DB, c.req.valid("query"));
    return ok(c, rows, { meta: { ...meta } });
  },
);

inventoryRoutes.post("/inventory/adjustments", validate("json", adjustmentInput), async (c) => {
  const adjustment = await adjustStock(c.env.DB, currentStaff(c), c.get("lang"), c.req.valid("json"));
  // A restock of a sold-out variant wrote its back-in-stock alerts: on their way now.
  await flushShopperMessages(c.env);
  return ok(c, adjustment, { status: 201, message: say(c.get("lang"), msg("console.inventory.adjusted")) });
});

inventoryRoutes.get(
  "/inventory/low-stock",
  validate("query", () => v.object(listQuerySchema(LOW_STOCK_SORTS, { dir: "asc" }))),
  async (c) => {
    const { rows, meta } = await lowStock(c.env.DB, c.req.valid("query"));
    return ok(c, rows, { meta: { ...meta } });
  },
);

/** The adjustment form's product picker: by SKU or name. */
inventoryRoutes.get(
  "/inventory/products",
  validate("query", () =>
    v.object({ search: v.pipe(v.string("Search is required."), v.trim(), v.minLength(1), v.maxLength(100)) }),
  ),
  async (c) => ok(c, await findStockProducts(c.env.DB, c.req.valid("query").search)),
);

/** Back-in-stock demand: per variant, the subscriptions waiting for it (services/stock-alerts/demand.ts). */
inventoryRoutes.get(
  "/inventory/stock-alerts",
  validate("query", () =>
    v.object({
      ...listQuerySchema(STOCK_ALERT_DEMAND_SORTS),
      product_id: v.optional(queryInt(1, 999_999_999_999)),
    }),
  ),
  async (c) => {
    const { rows, meta } = await stockAlertDemand(c.env.DB, c.req.valid("query"));
    return ok(c, rows, { meta: { ...meta } });
  },
);

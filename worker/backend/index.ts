import { unsubscribeRoutes } from "./routes/unsubscribe";
import { consentRoutes } from "./routes/consents";
import { pdplRoutes } from "./routes/pdpl";
import { CONSENTS_PATH } from "../../contract/consents";
import { UNSUBSCRIBE_PATH } from "../../contract/unsubscribe";
import { shippingRoutes } from "./routes/shipping";
import { Hono } from "hono";
import type { BackendEnv } from "./env";
import { backendBodyLimit } from "../../contract/server/body-limit";
import { errorBody } from "../../contract/server/errors";
import { requestLang } from "../../contract/server/i18n";
import { databaseSession } from "./db";
import { edgeCaller } from "./edge-caller";
import { mediaRoutes } from "./media";
import { addressesRoutes } from "./routes/addresses";
import { comparisonRoutes } from "./routes/comparison";
import { COMPARISON_PATH } from "../../contract/comparison";
import { WISHLIST_PATH } from "../../contract/wishlist";
import { publicWishlistRoutes, wishlistRoutes } from "./routes/wishlist";
import { adminRoutes } from "./routes/admin";
import { authRoutes } from "./routes/auth";
import { cartRoutes } from "./routes/cart";
import { catalogueRoutes } from "./routes/catalogue";
import { challengeRoutes } from "./routes/challenge";
import { checkoutRoutes } from "./routes/checkout";
import { contentRoutes } from "./routes/content";
import { devRoutes } from "./routes/dev";
import { deliveryRoutes } from "./routes/delivery";
import { ordersRoutes } from "./routes/orders";
import { selfServiceRoutes } from "./routes/self-service";
import { paymentsRoutes } from "./routes/payments";
import { promoRoutes } from "./routes/promo";
import { questionsRoutes } from "./routes/questions";
import { reviewsRoutes } from "./routes/reviews";
import { staffInvitationRoutes } from "./routes/staff-invitation";
import { stockAlertsRoutes } from "./routes/stock-alerts";
import { messageChannelRoutes } from "./routes/message-channel";
import { whatsappWebhookRoutes } from "./routes/whatsapp";
import { MESSAGE_CHANNEL_PATH } from "../../contract/message-channel";

export { queue, scheduled } from "./jobs";
export type { Env as BackendBindings, NotificationJob } from "./env";

/**
 * The reference commerce backend (DESIGN §6): an ordinary hono app on D1 that knows nothing of
 * React. The Worker mounts it at /backend; the storefront calls it in-process or over HTTP.
 */
export const backendApp = new Hono<BackendEnv>();

backendApp.use(async (c, next) => {
  c.set("lang", requestLang(c));
  c.set("deviceType", c.req.header("device-type") === "2" ? 2 : 1);
  if (!c.get("requestId")) c.set("requestId", c.req.header("x-request-id") ?? crypto.randomUUID());
  await next();
  c.header("cache-control", c.res.headers.get("cache-control") ?? "no-store");
});

// The edge's calls, and the cross-site check of everyone else's (edge-caller.ts).
backendApp.use(edgeCaller());
backendApp.use(backendBodyLimit());
// Which copy of D1 this request reads, and its bookmark (db.ts): before any route touches c.env.DB.
backendApp.use(databaseSession());

backendApp.route("/media", mediaRoutes);
backendApp.route("/", catalogueRoutes);
backendApp.route("/", contentRoutes);
backendApp.route("/", questionsRoutes);
backendApp.route("/", reviewsRoutes);
backendApp.route(MESSAGE_CHANNEL_PATH, messageChannelRoutes);
backendApp.route("/client/auth", authRoutes);
backendApp.route("/client/addresses", addressesRoutes);
backendApp.route(COMPARISON_PATH, comparisonRoutes);
backendApp.route(WISHLIST_PATH, wishlistRoutes);
backendApp.route(CONSENTS_PATH, consentRoutes);
backendApp.route("/client/account", pdplRoutes);
backendApp.route("/wishlist", publicWishlistRoutes);
backendApp.route("/client/staff-invitation", staffInvitationRoutes);
backendApp.route("/cart", cartRoutes);
backendApp.route("/promo-code", promoRoutes);
backendApp.route("/checkout", checkoutRoutes);
backendApp.route("/delivery", deliveryRoutes);
backendApp.route("/orders", ordersRoutes);
backendApp.route("/orders", selfServiceRoutes);
backendApp.route("/payments", paymentsRoutes);
backendApp.route("/webhooks/whatsapp", whatsappWebhookRoutes);
backendApp.route("/shipping", shippingRoutes);
backendApp.route("/dev", devRoutes);
backendApp.route(UNSUBSCRIBE_PATH, unsubscribeRoutes);
backendApp.route("/challenge", challengeRoutes);
backendApp.route("/stock-alerts", stockAlertsRoutes);
backendApp.route("/admin", adminRoutes);

backendApp.notFound((c) => c.json({ message: "Not found" }, 404));

backendApp.onError((err, c) => {
  const { status, body } = errorBody(err, c.get("requestId"));
  if (status >= 500)
    console.error(
      JSON.stringify({ level: "error", request_id: c.get("requestId"), path: c.req.path, error: String(err) }),
    );
  return c.json(body, status);
});

import { type RouteConfig, index, route } from "@react-router/dev/routes";

/**
 * Every route of spec §2 lives once, under `:locale` (en or ar, validated by the root's page
 * validation). The home page and /error also exist without a prefix, in the visitor's locale.
 */
const shopPages = [
  index("routes/home.tsx"),
  route("auth/login", "routes/auth.login.tsx"),
  route("auth/register", "routes/auth.register.tsx"),
  route("auth/otp", "routes/auth.otp.tsx"),
  route("auth/welcome", "routes/auth.welcome.tsx"),
  route("auth/forget-password", "routes/auth.forget-password.tsx"),
  route("auth/confirm-password", "routes/auth.confirm-password.tsx"),
  route("contact-us", "routes/contact-us.tsx"),
  route("about-us", "routes/about-us.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),
  route("page", "routes/page._index.tsx"),
  route("page/:slug", "routes/page.$slug.tsx"),
  route("orders", "routes/orders.tsx"),
  // The profile's sections are nested routes of its layout (nav and title); an unknown one is a 404.
  route("profile", "routes/profile/layout.tsx", [
    index("routes/profile/overview.tsx"),
    route("orders", "routes/profile/orders.tsx"),
    route("addresses", "routes/profile/addresses.tsx"),
    route("edit", "routes/profile/edit.tsx"),
    route("change-password", "routes/profile/change-password.tsx"),
    route("messages", "routes/profile/messages.tsx"),
    route("privacy", "routes/profile/privacy.tsx"),
    route(":slug", "routes/profile/unknown.tsx"),
  ]),
  route("products", "routes/products.tsx"),
  route("product-details", "routes/product-details._index.tsx"),
  route("product-details/:slug", "routes/product-details.$slug.tsx"),
  route("compare", "routes/compare.tsx"),
  route("wishlist", "routes/wishlist.tsx"),
  route("wishlist/shared/:token", "routes/wishlist.shared.$token.tsx"),
  route("services", "routes/services._index.tsx"),
  route("services/:slug", "routes/services.$slug.tsx"),
  route("track-order", "routes/track-order.tsx"),
  route("payment-status", "routes/payment-status.tsx"),
  route("checkout", "routes/checkout.tsx"),
  route("order/checkout/status", "routes/order.checkout.status.tsx"),
  route("order/:number/invoice", "routes/order.invoice.tsx"),
  route("order/:number/credit-note/:id", "routes/order.credit-note.tsx"),
  route("order/:number/debit-note/:id", "routes/order.credit-note.tsx", { id: "order-debit-note" }),
  route("proceed-payement", "routes/proceed-payement.tsx"),
  route("shopping-cart", "routes/shopping-cart.tsx"),
  // A cart reminder's link: restores the reminded cart into this visitor's, then shows the cart.
  route("cart/restore/:token", "routes/cart.restore.tsx"),
  // A staff invitation's accept page: the invitee is a shop account until they accept.
  route("staff-invitation", "routes/staff-invitation.tsx"),
  // Writing a review: a review invitation's link (?order=) or the product page's button (?product=).
  route("reviews/write", "routes/reviews.write.tsx"),
  // Stops one kind of message to a shopper, from the link in the message (asks to confirm first).
  route("unsubscribe", "routes/unsubscribe.tsx"),
  route("error", "routes/error.tsx", { id: "locale-error" }),
  route("*", "routes/not-found.tsx"),
];

/**
 * The operator console: its own layout under /:locale/admin, outside the shop's. A
 * static segment outranks the shop's `:locale/*`, so these never reach the shop's 404 route.
 */
const consolePages = [
  index("routes/admin/dashboard.tsx"),
  route("sign-in", "routes/admin/sign-in.tsx"),
  route("products", "routes/admin/products.tsx"),
  route("products/new", "routes/admin/product-edit.tsx", { id: "admin-product-new" }),
  route("products/import", "routes/admin/products-import.tsx"),
  route("products/:id", "routes/admin/product-edit.tsx"),
  route("categories", "routes/admin/categories.tsx"),
  route("categories/:id", "routes/admin/category-edit.tsx"),
  route("brands", "routes/admin/brands.tsx"),
  route("brands/:id", "routes/admin/brand-edit.tsx"),
  route("services", "routes/admin/services.tsx"),
  route("services/:id", "routes/admin/service-edit.tsx"),
  route("pages", "routes/admin/pages.tsx"),
  route("pages/:id", "routes/admin/page-edit.tsx"),
  route("inventory", "routes/admin/inventory.tsx"),
  route("orders", "routes/admin/orders.tsx"),
  route("orders/:number", "routes/admin/order.tsx"),
  route("orders/:number/invoice", "routes/admin/order-invoice.tsx"),
  route("orders/:number/credit-notes/:id", "routes/admin/order-credit-note.tsx"),
  route("orders/:number/debit-notes/:id", "routes/admin/order-credit-note.tsx", { id: "admin-debit-note" }),
  route("orders/:number/packing-slip", "routes/admin/packing-slip.tsx"),
  route("shipments/remittances", "routes/admin/remittances.tsx"),
  // labels.pdf, pick-list.pdf, manifest.pdf: the backend's PDFs through the console's session.
  route("shipments/:document", "routes/admin/shipping-document.ts"),
  route("promo-codes", "routes/admin/promo-codes.tsx"),
  route("promo-codes/:id", "routes/admin/promo-code.tsx"),
  route("questions", "routes/admin/questions.tsx"),
  route("customers", "routes/admin/customers.tsx"),
  route("customers/:id", "routes/admin/customer.tsx"),
  route("staff", "routes/admin/staff.tsx"),
  route("audit", "routes/admin/audit.tsx"),
  route("settings", "routes/admin/settings.tsx"),
  route("field-data", "routes/admin/field-data.tsx"),
  route("reports", "routes/admin/reports.tsx"),
  route("einvoicing", "routes/admin/einvoicing.tsx"),
  route("reviews", "routes/admin/reviews.tsx"),
  // A document's signed XML: the backend's file through the console's session.
  route("einvoicing/documents/:id/xml", "routes/admin/einvoice-xml.ts"),
  route("*", "routes/admin/not-found.tsx"),
];

export default [
  route("sitemap.xml", "routes/sitemap[.]xml.ts"),
  route("robots.txt", "routes/robots[.]txt.ts"),
  route("/", "routes/shop.tsx", { id: "shop-default" }, [
    index("routes/home.tsx", { id: "home-default" }),
    route("error", "routes/error.tsx"),
  ]),
  route(":locale/admin", "routes/admin/layout.tsx", consolePages),
  route(":locale", "routes/shop.tsx", shopPages),
] satisfies RouteConfig;

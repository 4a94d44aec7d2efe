import { Hono, type Context } from "hono";
import * as v from "valibot";
import type { BackendEnv, Lang } from "../env";
import { BackendError, notFound, ok, unprocessable, xmlAnswer } from "../http";
import { say } from "../../../contract/server/i18n";
import { requireUser } from "../identity";
import { accessibleOrder } from "../order-access";
import { findOrderByNumber } from "../services/orders/orders";
import { openedByLink, tabGrant, verifyOrderAccess } from "../services/orders/order-links";
import { currentEInvoice, findTaxDocument, presentTaxDocument } from "../services/orders/invoices";
import { stampIfWaiting } from "../services/einvoicing/reporting";
import { limitShopCall } from "../services/challenge/policy";
import { validate } from "../../../contract/server/validate";
import { presentOwnOrder } from "./self-service";
import { presentOrder, presentOrders, listUserOrders, trackOrder } from "../services/orders/shopper-orders";
import { msg } from "../messages";

/**
 * Orders: GET /orders (signed in), GET /orders/{number} and its documents (its owner, or a tab
 * holding a grant for it: order-access.ts), POST /orders/track, POST /orders/{number}/access.
 */
export const ordersRoutes = new Hono<BackendEnv>();

const orderNumber = (lang: Lang) =>
  v.pipe(
    v.string(say(lang, msg("orders.enterOrderNumber"))),
    v.trim(),
    v.regex(/^SQ-[A-Z0-9]{8}$/i, say(lang, msg("orders.numberShape"))),
  );

ordersRoutes.get("/", async (c) => {
  const userId = await requireUser(c);
  return ok(c, await presentOrders(c.env.DB, await listUserOrders(c.env.DB, userId), c.get("lang")));
});

ordersRoutes.post(
  "/track",
  validate("json", (_m, lang) => {
    const contact = say(lang, msg("orders.enterEmailOrPhone"));
    return v.object({
      number: orderNumber(lang),
      contact: v.pipe(v.string(contact), v.trim(), v.minLength(3, contact), v.maxLength(254, contact)),
    });
  }),
  async (c) => {
    const { number, contact } = c.req.valid("json");
    // Each try is a guess at an order's contact: counted per order number (as stored, upper case,
    // so changing the case does not give a fresh count; refused past the limit) and per network
    // (challenged past it, with no clearance: a tracker is nobody's cart).
    await limitShopCall(c, "track", [`track:order:${number.toUpperCase()}`]);
    const order = await trackOrder(c.env.DB, number, contact);
    // One answer for an unknown number and a wrong contact: tracking reveals nothing else. It is a
    // 422 on the form (field `order`: the pair), not a 404: the storefront's common handler sends
    // every 404 to /error (spec §8), and a mistyped number must leave the shopper on their form.
    if (!order) {
      const message = say(c.get("lang"), msg("orders.noMatch"));
      throw unprocessable({ order: [message] }, message);
    }
    // The pair proved the guest's ownership as the tab's guest id would have: the page may open
    // the order's own page with this grant (invoice, cancel, returns). An account's order is its
    // account's to open, so it gets none. Issued only past the limits above, so tracking's
    // counts still bound every guess.
    const meta = openedByLink(order) ? { access: await tabGrant(c.env, order.number) } : undefined;
    return ok(c, await presentOrder(c.env.DB, order, c.get("lang"), { withAddress: false, maskEmail: true }), {
      meta,
    });
  },
);

/**
 * POST /orders/{number}/access {token}: a message link's signed token traded for a tab grant
 * (services/orders/order-links.ts). Refused alike, 403, for a tampered or expired token, one of another
 * order or purpose, and an order that belongs to an account. Not counted: a token is a 256-bit
 * signature, which no number of guesses finds, and checking one costs an HMAC.
 */
ordersRoutes.post(
  "/:number/access",
  validate("json", () => v.object({ token: v.pipe(v.string(), v.trim(), v.maxLength(128)) })),
  async (c) => {
    const lang = c.get("lang");
    const number = c.req.param("number");
    const checked = /^SQ-[A-Z0-9]{8}$/i.test(number)
      ? await verifyOrderAccess(c.env, number, "message", c.req.valid("json").token)
      : ({ ok: false, reason: "invalid" } as const);
    const order = checked.ok ? await findOrderByNumber(c.env.DB, number) : null;
    if (!order || !openedByLink(order))
      throw new BackendError(
        403,
        !checked.ok && checked.reason === "expired"
          ? say(lang, msg("orders.linkExpired"))
          : say(lang, msg("orders.linkInvalid")),
      );
    return ok(c, await tabGrant(c.env, order.number));
  },
);

ordersRoutes.get("/:number", async (c) => {
  return ok(c, await presentOwnOrder(c, await accessibleOrder(c, c.req.param("number"))));
});

// Tax documents: whoever may open the order, like the order (a stranger gets the same 404). Each
// comes as the page's JSON, as its signed XML (`.xml`) and as a PDF/A-3 carrying that XML (`.pdf`).
async function documentOf(c: Context<BackendEnv>) {
  const lang = c.get("lang");
  const order = await accessibleOrder(c, c.req.param("number") ?? "");
  const id = c.req.param("file")?.replace(/\.(xml|pdf)$/, "");
  const kind = c.req.path.includes("/debit-notes/") ? "debit_note" : "credit_note";
  const doc = await findTaxDocument(c.env, order, id ? { kind, id: Number(id) } : { kind: "invoice" });
  if (!doc) throw notFound(say(lang, msg(id ? "orders.creditNoteNotFound" : "orders.noInvoice")));
  // A document issued since the last stamp is stamped on its first read, not a minute later.
  await stampIfWaiting(c.env, doc);
  return { order, doc, lang };
}

async function documentAnswer(c: Context<BackendEnv>) {
  const { order, doc, lang } = await documentOf(c);
  const format = /\.(xml|pdf)$/.exec(c.req.path)?.[1];
  if (!format) return ok(c, await presentTaxDocument(c.env, order, doc, lang));
  const einvoice = await currentEInvoice(c.env.DB, doc.id);
  if (!einvoice) throw notFound(say(lang, msg("einvoicing.notStamped")));
  // A standard invoice reaches its buyer once ZATCA cleared it: its cleared document.
  if (einvoice.transaction_type === "standard" && !einvoice.cleared_xml)
    throw new BackendError(409, say(lang, msg("einvoicing.notCleared")));
  const xml = einvoice.cleared_xml ?? einvoice.xml;
  if (format === "xml") return xmlAnswer(xml, `${doc.number}.xml`);
  const { taxDocumentPdf } = await import("../services/einvoicing/invoice-pdf");
  const pdf = await taxDocumentPdf({
    document: await presentTaxDocument(c.env, order, doc, lang),
    xml,
    xmlFileName: `${doc.number}.xml`,
    qr: einvoice.qr,
    lang,
  });
  return new Response(new Uint8Array(pdf), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${doc.number}.pdf"`,
      "cache-control": "private, no-store",
    },
  });
}

ordersRoutes.get("/:number/invoice", documentAnswer);
ordersRoutes.get("/:number/invoice.xml", documentAnswer);
ordersRoutes.get("/:number/invoice.pdf", documentAnswer);
ordersRoutes.get("/:number/credit-notes/:file{[0-9]{1,12}(?:\\.xml|\\.pdf)?}", documentAnswer);
ordersRoutes.get("/:number/debit-notes/:file{[0-9]{1,12}(?:\\.xml|\\.pdf)?}", documentAnswer);

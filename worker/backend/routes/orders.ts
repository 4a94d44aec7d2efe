import { Hono } from "hono";
import * as v from "valibot";
import type { BackendEnv, Lang } from "../env";
import { notFound, ok, unprocessable } from "../http";
import { say } from "../../lib/i18n";
import { cartOwner, requireUser } from "../identity";
import { findOwnedOrder, listUserOrders, presentOrder, presentOrders, trackOrder } from "../services/orders";
import { findTaxDocument, presentTaxDocument } from "../services/invoices";
import { enforceLimits, requestNetwork } from "../services/rate-limit";
import { validate } from "../../lib/validate";
import { presentOwnOrder } from "./self-service";

/** Orders: GET /orders (signed in), GET /orders/{number} (its owner), POST /orders/track. */
export const ordersRoutes = new Hono<BackendEnv>();

const orderNumber = (lang: Lang) =>
  v.pipe(
    v.string(say(lang, { en: "Enter the order number.", ar: "أدخل رقم الطلب." })),
    v.trim(),
    v.regex(
      /^SQ-[A-Z0-9]{8}$/i,
      say(lang, { en: "An order number looks like SQ-7K3F9QX2.", ar: "رقم الطلب يشبه SQ-7K3F9QX2." }),
    ),
  );

ordersRoutes.get("/", async (c) => {
  const userId = await requireUser(c);
  return ok(c, await presentOrders(c.env.DB, await listUserOrders(c.env.DB, userId), c.get("lang")));
});

ordersRoutes.post(
  "/track",
  validate("json", (_m, lang) => {
    const contact = say(lang, {
      en: "Enter the email or phone used for the order.",
      ar: "أدخل البريد الإلكتروني أو رقم الجوال المستخدم في الطلب.",
    });
    return v.object({
      number: orderNumber(lang),
      contact: v.pipe(v.string(contact), v.trim(), v.minLength(3, contact), v.maxLength(254, contact)),
    });
  }),
  async (c) => {
    const { number, contact } = c.req.valid("json");
    // Each try is a guess at an order's contact: counted per network and per order number (as
    // stored, upper case, so changing the case does not give a fresh count), issue 17, L2.
    await enforceLimits(c, "SHOP_LIMITER", [`track:ip:${requestNetwork(c)}`, `track:order:${number.toUpperCase()}`]);
    const order = await trackOrder(c.env.DB, number, contact);
    // One answer for an unknown number and a wrong contact: tracking reveals nothing else. It is a
    // 422 on the form (field `order`: the pair), not a 404: the storefront's common handler sends
    // every 404 to /error (spec §8), and a mistyped number must leave the shopper on their form.
    if (!order) {
      const message = say(c.get("lang"), {
        en: "No order matches this number and contact.",
        ar: "لا يوجد طلب يطابق هذا الرقم وبيانات التواصل.",
      });
      throw unprocessable({ order: [message] }, message);
    }
    return ok(c, await presentOrder(c.env.DB, order, c.get("lang"), { withAddress: false, maskEmail: true }));
  },
);

ordersRoutes.get("/:number", async (c) => {
  const owner = await cartOwner(c);
  const order = await findOwnedOrder(c.env.DB, c.req.param("number"), owner);
  if (!order) throw notFound(say(c.get("lang"), { en: "Order not found.", ar: "الطلب غير موجود." }));
  return ok(c, await presentOwnOrder(c, order));
});

// Tax documents (issue 21): the owner's only, like the order (a stranger gets the same 404).
ordersRoutes.get("/:number/invoice", async (c) => {
  const lang = c.get("lang");
  const order = await findOwnedOrder(c.env.DB, c.req.param("number"), await cartOwner(c));
  const doc = order && (await findTaxDocument(c.env, order, { kind: "invoice" }));
  if (!order || !doc)
    throw notFound(say(lang, { en: "No tax invoice for this order.", ar: "لا توجد فاتورة ضريبية لهذا الطلب." }));
  return ok(c, await presentTaxDocument(c.env, order, doc, lang));
});

ordersRoutes.get("/:number/credit-notes/:id{[0-9]{1,12}}", async (c) => {
  const lang = c.get("lang");
  const order = await findOwnedOrder(c.env.DB, c.req.param("number"), await cartOwner(c));
  const doc = order && (await findTaxDocument(c.env, order, { kind: "credit_note", id: Number(c.req.param("id")) }));
  if (!order || !doc) throw notFound(say(lang, { en: "Credit note not found.", ar: "الإشعار الدائن غير موجود." }));
  return ok(c, await presentTaxDocument(c.env, order, doc, lang));
});

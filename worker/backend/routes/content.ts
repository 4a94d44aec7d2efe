import { Hono } from "hono";
import * as v from "valibot";
import { edgeCache } from "../cache";
import type { BackendEnv, Lang } from "../env";
import { notFound, ok, unprocessable } from "../http";
import { say } from "../i18n";
import { enforceLimits, hashedNetwork, requestNetwork } from "../services/rate-limit";
import { getPage, getService, homeData, listPages, listServices, saveContactMessage } from "../services/content";
import { fieldErrors } from "../validate";

/** Content: pages, services, home, contact. */
export const contentRoutes = new Hono<BackendEnv>();

/** Unknown slugs (including malformed ones) are simply not found. */
const isSlug = (s: string) => /^[a-z0-9-]{1,120}$/.test(s);

const PAGE_NOT_FOUND = { en: "Page not found.", ar: "الصفحة غير موجودة." };
const SERVICE_NOT_FOUND = { en: "Service not found.", ar: "الخدمة غير موجودة." };

contentRoutes.get("/pages", edgeCache("long"), async (c) => ok(c, await listPages(c.env.DB, c.get("lang"))));

contentRoutes.get("/pages/:slug", edgeCache("long"), async (c) => {
  const slug = c.req.param("slug");
  const page = isSlug(slug) ? await getPage(c.env.DB, c.get("lang"), slug) : null;
  if (!page) throw notFound(say(c.get("lang"), PAGE_NOT_FOUND));
  return ok(c, page);
});

contentRoutes.get("/services", edgeCache("long"), async (c) => ok(c, await listServices(c.env.DB, c.get("lang"))));

contentRoutes.get("/services/:slug", edgeCache("long"), async (c) => {
  const slug = c.req.param("slug");
  const service = isSlug(slug) ? await getService(c.env.DB, c.get("lang"), slug) : null;
  if (!service) throw notFound(say(c.get("lang"), SERVICE_NOT_FOUND));
  return ok(c, service);
});

contentRoutes.get("/home", edgeCache("short"), async (c) => ok(c, await homeData(c.env.DB, c.get("lang"))));

const CONTACT = {
  required: { en: "This field is required.", ar: "هذا الحقل مطلوب." },
  name: { en: "Name must be 2 to 100 characters.", ar: "يجب أن يتكون الاسم من 2 إلى 100 حرف." },
  email: { en: "Enter a valid email address.", ar: "أدخل بريدًا إلكترونيًا صحيحًا." },
  phone: { en: "Enter a valid phone number.", ar: "أدخل رقم هاتف صحيحًا." },
  subject: { en: "Subject must be 2 to 150 characters.", ar: "يجب أن يتكون الموضوع من 2 إلى 150 حرفًا." },
  message: { en: "Message must be 10 to 5000 characters.", ar: "يجب أن تتكون الرسالة من 10 إلى 5000 حرف." },
  invalid: { en: "Please check the highlighted fields.", ar: "يرجى التحقق من الحقول المحددة." },
  tooMany: {
    en: "Too many messages. Please try again in a minute.",
    ar: "عدد كبير من الرسائل. يرجى المحاولة مرة أخرى بعد دقيقة.",
  },
  sent: {
    en: "Thank you! Your message has been sent. We will reply soon.",
    ar: "شكرًا لك! تم إرسال رسالتك وسنرد عليك قريبًا.",
  },
};

/** Arabic-Indic digits typed into the phone field count as digits. */
const latinDigits = (s: string) =>
  s
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) - 0x06f0));

/** The contact form's schema, with its messages in the caller's language. */
export function contactSchema(lang: Lang) {
  const m = (key: keyof typeof CONTACT) => say(lang, CONTACT[key]);
  const text = (min: number, max: number, key: keyof typeof CONTACT) =>
    v.pipe(
      v.string(m("required")),
      v.trim(),
      v.nonEmpty(m("required")),
      v.minLength(min, m(key)),
      v.maxLength(max, m(key)),
    );
  return v.object({
    name: text(2, 100, "name"),
    email: v.pipe(
      v.string(m("required")),
      v.trim(),
      v.nonEmpty(m("required")),
      v.maxLength(254, m("email")),
      v.email(m("email")),
    ),
    phone: v.optional(
      v.pipe(
        v.string(m("phone")),
        v.trim(),
        v.transform(latinDigits),
        v.check((s) => s === "" || /^\+?[0-9][0-9 ()-]{5,19}$/.test(s), m("phone")),
        v.transform((s) => s || undefined),
      ),
    ),
    subject: text(2, 150, "subject"),
    message: text(10, 5000, "message"),
  });
}

contentRoutes.post("/contact", async (c) => {
  const lang = c.get("lang");
  // Rate limited per network before anything is parsed or stored. A no-JavaScript post arrives
  // through the storefront, which passes its visitor's own address on (worker/backend-client.ts).
  const network = requestNetwork(c);
  await enforceLimits(c, "CONTACT_LIMITER", [`contact:${network}`], CONTACT.tooMany);
  const body: unknown = await c.req.json().catch(() => undefined);
  const result = v.safeParse(contactSchema(lang), body ?? {});
  if (!result.success) throw unprocessable(fieldErrors(result.issues), say(lang, CONTACT.invalid));
  const { id } = await saveContactMessage(c.env.DB, result.output, {
    lang,
    // Keyed by the pepper: an unsalted hash of an IPv4 address is reversed by trying them all.
    ipHash: await hashedNetwork(c.env, network),
    requestId: c.get("requestId") ?? null,
  });
  return ok(c, { id }, { status: 201, message: say(lang, CONTACT.sent) });
});

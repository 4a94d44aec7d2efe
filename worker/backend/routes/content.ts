import { Hono } from "hono";
import { contactInput } from "../../../contract/inputs";
import { edgeCache } from "../cache";
import type { BackendEnv } from "../env";
import { notFound, ok } from "../http";
import { say } from "../../../contract/server/i18n";
import { enforceLimits, hashedNetwork, requestNetwork } from "../services/shared/rate-limit";
import {
  getPage,
  getService,
  homeData,
  listPages,
  listServices,
  saveContactMessage,
} from "../services/catalogue/content";
import { readInput } from "../../../contract/server/validate";
import { msg } from "../messages";

/** Content: pages, services, home, contact. */
export const contentRoutes = new Hono<BackendEnv>();

/** Unknown slugs (including malformed ones) are simply not found. */
const isSlug = (s: string) => /^[a-z0-9-]{1,120}$/.test(s);

const PAGE_NOT_FOUND = msg("content.pageNotFound");
const SERVICE_NOT_FOUND = msg("content.serviceNotFound");

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
  tooMany: msg("content.contact.tooMany"),
  sent: msg("content.contact.sent"),
};

contentRoutes.post("/contact", async (c) => {
  const lang = c.get("lang");
  // Rate limited per network before anything is parsed or stored. A no-JavaScript post arrives
  // through the storefront, which passes its visitor's own address on (worker/backend-client.ts).
  const network = requestNetwork(c);
  await enforceLimits(c, "CONTACT_LIMITER", [`contact:${network}`], CONTACT.tooMany);
  const input = await readInput(c, "json", contactInput);
  const { id } = await saveContactMessage(c.env.DB, input, {
    lang,
    // Keyed by the pepper: an unsalted hash of an IPv4 address is reversed by trying them all.
    ipHash: await hashedNetwork(c.env, network),
    requestId: c.get("requestId") ?? null,
  });
  return ok(c, { id }, { status: 201, message: say(lang, CONTACT.sent) });
});

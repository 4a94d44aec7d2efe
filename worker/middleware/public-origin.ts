import type { MiddlewareHandler } from "hono";
import type { HonoEnv } from "../env";
import { escapeHtml } from "../../contract/server/html";
import { requestLang, say, type Bilingual } from "../../contract/server/i18n";
import { PUBLIC_ORIGIN_HINT, publicOriginProblem } from "../../contract/server/public-origin";

const UNAVAILABLE: Bilingual = {
  en: "The shop is not available right now. Please try again later.",
  ar: "المتجر غير متاح حالياً. يرجى المحاولة لاحقاً.",
};

const page =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<title>Souq Electronics</title></head><body style="font-family:system-ui,'Segoe UI',Tahoma,sans-serif;margin:48px auto;max-inline-size:36rem;padding-inline:16px">` +
  `<p>${escapeHtml(UNAVAILABLE.en)}</p><p lang="ar" dir="rtl">${escapeHtml(UNAVAILABLE.ar)}</p></body></html>`;

/** Once per isolate: the operator needs the line, not one per request. */
let logged = false;

/**
 * The worker refuses to serve without the shop's public origin in production (lib/public-origin.ts),
 * as it refuses to hash without a pepper: the links of the messages it sends would otherwise have
 * nowhere trustworthy to point. Every request answers 503 (a page for a browser, JSON for the
 * rest), and the log says what to set.
 */
export const requirePublicOrigin = (): MiddlewareHandler<HonoEnv> => async (c, next) => {
  const problem = publicOriginProblem(c.env);
  if (!problem) return next();
  if (!logged) {
    logged = true;
    console.error(
      JSON.stringify({ level: "error", event: `config.public_origin_${problem}`, reason: PUBLIC_ORIGIN_HINT[problem] }),
    );
  }
  c.header("cache-control", "no-store");
  c.header("retry-after", "300");
  const wantsPage = (c.req.header("accept") ?? "").includes("text/html");
  if (wantsPage) return c.html(page, 503);
  return c.json({ message: say(requestLang(c), UNAVAILABLE) }, 503);
};

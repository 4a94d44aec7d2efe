import { Hono } from "hono";
import type { BackendEnv } from "../env";
import { notFound } from "../http";
import { say } from "../../../contract/server/i18n";
import { msg } from "../messages";
import { standInsEnabled } from "../services/payments/providers";
import { standInScript, type StandInWords } from "../services/challenge/turnstile-stand-in";

/**
 * GET /challenge/stand-in/api.js: the offline stand-in of Turnstile's widget script, which the
 * storefront loads in place of Cloudflare's when a challenged refusal names it (development and
 * test only; 404 anywhere else, as the payment stand-ins' pages are).
 */
export const challengeRoutes = new Hono<BackendEnv>();

const words = (lang: "en" | "ar"): StandInWords => ({
  checking: say(lang, msg("shared.challenge.standIn.checking")),
  verify: say(lang, msg("shared.challenge.standIn.verify")),
  success: say(lang, msg("shared.challenge.standIn.success")),
  blocked: say(lang, msg("shared.challenge.standIn.blocked")),
});

challengeRoutes.get("/stand-in/api.js", (c) => {
  if (!standInsEnabled(c.env)) throw notFound();
  return c.body(standInScript({ en: words("en"), ar: words("ar") }), 200, {
    "content-type": "text/javascript; charset=utf-8",
  });
});

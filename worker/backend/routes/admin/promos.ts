import { Hono } from "hono";
import * as v from "valibot";
import {
  PROMO_FILTERS,
  PROMO_SORTS,
  promoCodeInput,
  type PromoRuleMessages,
} from "../../../../contract/console-promos";
import type { Locale } from "../../../../contract/locale";
import type { BackendEnv } from "../../env";
import { notFound, ok } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { validate } from "../../../../contract/server/validate";
import { listQuerySchema } from "../../services/console/list";
import { createPromo, findConsolePromo, listPromos, setPromoActive, updatePromo } from "../../services/console/promos";
import { currentStaff, staffOnly } from "../../services/console/staff";
import { msg } from "../../messages";

/** /admin/promo-codes (managers and owners): list with usage so far, create, edit, pause, resume. */
export const promosRoutes = new Hono<BackendEnv>();

promosRoutes.use(staffOnly("manager"));

const rules = (lang: Locale): PromoRuleMessages => ({
  percent: say(lang, msg("console.promos.percent")),
  endsAfterStarts: say(lang, msg("console.promos.endsAfterStarts")),
});

const promoSchema = validate("json", (m, lang) => promoCodeInput(m, rules(lang)));

function promoId(raw: string | undefined): number {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) throw notFound();
  return Number(raw);
}

promosRoutes.get(
  "/",
  validate("query", () =>
    v.object({
      ...listQuerySchema(PROMO_SORTS),
      status: v.optional(v.picklist(PROMO_FILTERS, `Status is one of: ${PROMO_FILTERS.join(", ")}.`)),
      search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(40))),
    }),
  ),
  async (c) => {
    const { rows, meta } = await listPromos(c.env.DB, c.req.valid("query"));
    return ok(c, rows, { meta: { ...meta } });
  },
);

promosRoutes.get("/:id", async (c) => ok(c, await findConsolePromo(c.env.DB, promoId(c.req.param("id")))));

promosRoutes.post("/", promoSchema, async (c) => {
  const promo = await createPromo(c.env.DB, currentStaff(c), c.get("lang"), c.req.valid("json"));
  return ok(c, promo, {
    status: 201,
    message: say(c.get("lang"), msg("console.promos.created")),
  });
});

promosRoutes.put("/:id", promoSchema, async (c) => {
  const id = promoId(c.req.param("id"));
  return ok(c, await updatePromo(c.env.DB, currentStaff(c), c.get("lang"), id, c.req.valid("json")));
});

promosRoutes.post("/:id/pause", async (c) =>
  ok(c, await setPromoActive(c.env.DB, currentStaff(c), promoId(c.req.param("id")), false)),
);

promosRoutes.post("/:id/resume", async (c) =>
  ok(c, await setPromoActive(c.env.DB, currentStaff(c), promoId(c.req.param("id")), true)),
);

import { Hono, type Context } from "hono";
import * as v from "valibot";
import { EINVOICE_STATUSES, otpInput, registrationInput } from "../../../../contract/einvoicing";
import { say } from "../../../../contract/server/i18n";
import { validate } from "../../../../contract/server/validate";
import type { BackendEnv } from "../../env";
import { BackendError, notFound, ok, xmlAnswer } from "../../http";
import { msg } from "../../messages";
import { auditStatement } from "../../services/console/audit-log";
import { currentStaff, staffOnly } from "../../services/console/staff";
import { einvoiceOverview } from "../../services/einvoicing/console";
import {
  OnboardingError,
  register,
  renewProduction,
  requestCompliance,
  requestProduction,
} from "../../services/einvoicing/onboarding";
import { resendEInvoice } from "../../services/einvoicing/reporting";

/**
 * E-invoicing from the console: the unit's onboarding with ZATCA (owner only: it creates the key
 * every document is signed with), and the documents' reporting (managers and owners read it and
 * send a corrected document again).
 */
export const einvoicingRoutes = new Hono<BackendEnv>();

const owners = staffOnly("owner");
const managers = staffOnly("manager");

/** ZATCA's refusal in the request's language frame: its own words, which name the rule. */
async function onboarding(c: Context<BackendEnv>, step: () => Promise<unknown>, action: string, after: unknown) {
  try {
    await step();
  } catch (err) {
    if (err instanceof OnboardingError) {
      const message = err.status === 503 ? say(c.get("lang"), msg("einvoicing.unavailable")) : err.message;
      return c.json(
        {
          message,
          errors: { [err.code === "Invalid-OTP" || err.code === "Missing-OTP" ? "otp" : "zatca"]: [err.message] },
        },
        err.status,
      );
    }
    throw err;
  }
  await auditStatement(c.env.DB, currentStaff(c), action, "einvoice", "unit", null, after).run();
  return ok(c, await einvoiceOverview(c.env));
}

einvoicingRoutes.get(
  "/",
  managers,
  validate("query", (m) => v.object({ status: v.optional(v.picklist(EINVOICE_STATUSES, m.invalid("status"))) })),
  async (c) => ok(c, await einvoiceOverview(c.env, c.req.valid("query"))),
);

einvoicingRoutes.put("/registration", owners, validate("json", registrationInput), async (c) => {
  const input = c.req.valid("json");
  return onboarding(c, () => register(c.env, input, currentStaff(c).email), "einvoice.register", input);
});

einvoicingRoutes.post("/compliance", owners, validate("json", otpInput), async (c) => {
  const { otp } = c.req.valid("json");
  return onboarding(c, () => requestCompliance(c.env, otp, currentStaff(c).email), "einvoice.compliance", null);
});

einvoicingRoutes.post("/production", owners, async (c) =>
  onboarding(c, () => requestProduction(c.env, currentStaff(c).email), "einvoice.production", null),
);

einvoicingRoutes.post("/renew", owners, validate("json", otpInput), async (c) => {
  const { otp } = c.req.valid("json");
  return onboarding(c, () => renewProduction(c.env, otp, currentStaff(c).email), "einvoice.renew", null);
});

einvoicingRoutes.post("/documents/:id{[0-9]{1,12}}/resend", managers, async (c) => {
  const lang = c.get("lang");
  const id = Number(c.req.param("id"));
  const row = await c.env.DB.prepare(
    "SELECT e.status, d.number FROM einvoices e JOIN tax_documents d ON d.id = e.document_id WHERE e.id = ?",
  )
    .bind(id)
    .first<{ status: string; number: string }>();
  if (!row) throw notFound(say(lang, msg("einvoicing.notFound")));
  const sent = await resendEInvoice(c.env, id);
  if (!sent) throw new BackendError(409, say(lang, msg("einvoicing.notRejected")));
  await auditStatement(
    c.env.DB,
    currentStaff(c),
    "einvoice.resend",
    "einvoice",
    id,
    { status: row.status },
    {
      number: row.number,
      status: sent.status,
      icv: sent.icv,
    },
  ).run();
  return ok(c, await einvoiceOverview(c.env));
});

/** The signed XML of one copy (or, once cleared, ZATCA's cleared document). */
einvoicingRoutes.get("/documents/:id{[0-9]{1,12}}/xml", managers, async (c) => {
  const row = await c.env.DB.prepare(
    "SELECT e.xml, e.cleared_xml, e.uuid, d.number FROM einvoices e JOIN tax_documents d ON d.id = e.document_id WHERE e.id = ?",
  )
    .bind(Number(c.req.param("id")))
    .first<{ xml: string; cleared_xml: string | null; uuid: string; number: string }>();
  if (!row) throw notFound(say(c.get("lang"), msg("einvoicing.notFound")));
  return xmlAnswer(row.cleared_xml ?? row.xml, `${row.number}.xml`);
});

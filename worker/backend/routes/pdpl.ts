import { Hono, type Context } from "hono";
import { erasureInput, exportFileName, type AccountExport } from "../../../contract/pdpl";
import { readInput } from "../../../contract/server/validate";
import { say } from "../../../contract/server/i18n";
import type { BackendEnv } from "../env";
import { ok, unprocessable } from "../http";
import { requireUser } from "../identity";
import { msg } from "../messages";
import { enforceLimits, requestNetwork } from "../services/shared/rate-limit";
import { deliver, type AccountsEnv } from "../services/accounts/accounts";
import { consumeCode, issueCode } from "../services/accounts/otp";
import { verifyPassword } from "../services/accounts/password";
import { eraseAccount, exportAccount, refuseErasure } from "../services/pdpl/pdpl";
import { accountsEnv } from "./auth";

/**
 * The signed-in shopper's data rights (contract/pdpl.ts, services/pdpl/pdpl.ts): the export file,
 * and the erasure of the account after they prove it is them again.
 */
export const pdplRoutes = new Hono<BackendEnv>();

const TOO_MANY = msg("pdpl.tooMany");

/** The export as a file: JSON, saved as souq-edge-data-<date>.json. */
export function exportAnswer(data: AccountExport): Response {
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${exportFileName(data.generated_at.slice(0, 10))}"`,
      "cache-control": "no-store",
    },
  });
}

pdplRoutes.get("/export", async (c) => {
  const userId = await requireUser(c);
  await enforceLimits(c, "CONTACT_LIMITER", [`export:user:${userId}`], TOO_MANY);
  return exportAnswer(await exportAccount(c.env, userId));
});

/** Sends a code to the account's email (else phone) that can stand for the password in the erasure. */
pdplRoutes.post("/erase-code", async (c) => {
  const userId = await requireUser(c);
  const lang = c.get("lang");
  await enforceLimits(c, "OTP_LIMITER", [`erase-code:user:${userId}`], TOO_MANY);
  const user = await c.env.DB.prepare("SELECT email, phone FROM users WHERE id = ?")
    .bind(userId)
    .first<{ email: string | null; phone: string | null }>();
  const target = user?.email
    ? { to: user.email, channel: "email" as const }
    : user?.phone
      ? { to: user.phone, channel: "sms" as const }
      : null;
  if (!target) throw unprocessable({ code: [say(lang, msg("pdpl.noAddress"))] }, say(lang, msg("pdpl.noAddress")));
  const env: AccountsEnv = accountsEnv(c);
  const issued = await issueCode(env, userId, "erase");
  if (issued.issued) await deliver(env, target.to, target.channel, "erase", issued.code, lang);
  return ok(c, { sent: true }, { message: say(lang, msg("pdpl.codeSent")) });
});

/** Checks the password or the code; a wrong one is a 422 on its field and nothing is erased. */
async function reprove(c: Context<BackendEnv>, userId: number, input: { password?: string; code?: string }) {
  const lang = c.get("lang");
  if (input.password) {
    const hash = await c.env.DB.prepare("SELECT password_hash FROM users WHERE id = ?")
      .bind(userId)
      .first<string>("password_hash");
    if (hash && (await verifyPassword(c.env, input.password, hash))) return;
    const text = say(lang, msg("pdpl.passwordWrong"));
    throw unprocessable({ password: [text] }, text);
  }
  if (input.code) {
    const passed = await consumeCode(c.env, {
      userId,
      purpose: "erase",
      code: input.code,
      network: requestNetwork(c),
      subject: `user:${userId}`,
    });
    if (passed) return;
    const text = say(lang, msg("pdpl.codeWrong"));
    throw unprocessable({ code: [text] }, text);
  }
  const text = say(lang, msg("pdpl.proofRequired"));
  throw unprocessable({ password: [text] }, text);
}

pdplRoutes.post("/erase", async (c) => {
  const userId = await requireUser(c);
  const lang = c.get("lang");
  await enforceLimits(c, "AUTH_LIMITER", [`erase:user:${userId}`], TOO_MANY);
  const input = await readInput(c, "json", erasureInput);
  await reprove(c, userId, input);
  await refuseErasure(c.env.DB, userId, lang);
  await eraseAccount(c.env, userId, { by: "self" });
  return ok(c, { erased: true }, { message: say(lang, msg("pdpl.erased")) });
});

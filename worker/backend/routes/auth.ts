import { Hono, type Context } from "hono";
import * as v from "valibot";
import type { BackendEnv, Lang } from "../env";
import { BackendError, deferOf, ok } from "../http";
import { say } from "../../../contract/server/i18n";
import { bearerToken, knownGuest, requireUser, revokeToken } from "../identity";
import {
  changePassword,
  checkPassword,
  getProfile,
  loginUser,
  MESSAGES,
  registerUser,
  requestCode,
  resetPassword,
  socialPlatforms,
  updateProfile,
  verifyCode,
  type AccountsEnv,
  type Identifier,
} from "../services/accounts/accounts";
import {
  MESSAGES as CODE_MESSAGES,
  requestSignInCode,
  saveName,
  verifySignInCode,
} from "../services/accounts/code-sign-in";
import { mergeGuestCart } from "../services/orders/cart";
import { consentStatement } from "../services/consents/consents";
import { withinLimits, requestNetwork, type LimiterName } from "../services/shared/rate-limit";
import { body, confirmed, identifierOf } from "./account-input";

/** Accounts: the /client/auth/* calls of spec §7 (DESIGN §5). */
export const authRoutes = new Hono<BackendEnv>();

/**
 * Counts this call against the caller's IP (`subject` null: done first, before the body is even
 * read, so malformed attempts count too) or the account identifier it names; over the limit
 * answers 429. The key is the identifier as typed, never whether an account exists, so a 429
 * reveals nothing either. `perNetwork` keys the identifier together with the caller's network:
 * used where a count per identifier alone would let anyone lock the owner out (L3).
 */
async function limit(
  c: Context<BackendEnv>,
  limiter: LimiterName,
  action: string,
  subject: string | null,
  perNetwork = false,
): Promise<void> {
  const network = requestNetwork(c);
  const key =
    subject === null
      ? `${action}:ip:${network}`
      : perNetwork
        ? `${action}:id:${subject}:net:${network}`
        : `${action}:id:${subject}`;
  const allowed = await withinLimits(c.env, limiter, [key]);
  if (!allowed) {
    c.header("retry-after", "60");
    throw new BackendError(429, say(c.get("lang"), MESSAGES.tooMany));
  }
}

/** Login and register bring the visitor's guest cart along (spec §4). */
async function mergeCart(c: Context<BackendEnv>, userId: number): Promise<void> {
  const guestId = await knownGuest(c);
  if (guestId) await mergeGuestCart(c.env.DB, guestId, userId);
}

const lang = (c: Context<BackendEnv>): Lang => c.get("lang");

/** The bindings, plus the request's waitUntil for work that must not delay the answer. */
export function accountsEnv(c: Context<BackendEnv>): AccountsEnv {
  // No execution context (a direct app.request): everything runs inline.
  return { ...c.env, defer: deferOf(c) };
}

authRoutes.post("/register", async (c) => {
  await limit(c, "AUTH_LIMITER", "register", null);
  const input = await body(c, (f) =>
    v.object({
      name: f.name,
      email: f.requiredEmail,
      phone: f.optionalPhone,
      password: f.password,
      password_confirmation: f.confirmation,
      // The optional, unticked-by-default marketing consent of the sign-up form, asked apart from the terms.
      marketing: v.optional(v.boolean(), false),
    }),
  );
  confirmed(c, input);
  await limit(c, "AUTH_LIMITER", "register", input.email);
  const result = await registerUser(
    accountsEnv(c),
    { name: input.name, email: input.email, phone: input.phone || null, password: input.password },
    lang(c),
  );
  if (input.marketing)
    await consentStatement(
      c.env.DB,
      { userId: result.user.id },
      { purpose: "marketing", granted: true, lang: lang(c), source: "register" },
    ).run();
  await mergeCart(c, result.user.id);
  return ok(c, result, { message: say(lang(c), MESSAGES.registered), status: 201 });
});

authRoutes.post("/login", async (c) => {
  await limit(c, "AUTH_LIMITER", "login", null);
  const input = await body(c, (f) =>
    v.object({ email: f.optionalEmail, phone: f.optionalPhone, password: f.loginPassword }),
  );
  const who = identifierOf(c, input);
  // Per account and network, not per account alone: ten wrong passwords from elsewhere must not
  // lock the owner out. Failures from anywhere slow the account's answers instead (loginUser).
  await limit(c, "AUTH_LIMITER", "login", who.value, true);
  const result = await loginUser(accountsEnv(c), who, input.password, lang(c));
  await mergeCart(c, result.user.id);
  return ok(c, result, { message: say(lang(c), MESSAGES.loggedIn) });
});

authRoutes.post("/reset-password", async (c) => {
  await limit(c, "OTP_LIMITER", "otp-send", null);
  const input = await body(c, (f) => v.object({ email: f.optionalEmail, phone: f.optionalPhone }));
  const who = identifierOf(c, input);
  await limit(c, "OTP_LIMITER", "otp-send", who.value);
  return ok(c, null, { message: await requestCode(accountsEnv(c), who, "reset", lang(c)) });
});

authRoutes.post("/resend-code", async (c) => {
  await limit(c, "OTP_LIMITER", "otp-send", null);
  const input = await body(c, (f) => v.object({ email: f.optionalEmail, phone: f.optionalPhone, purpose: f.purpose }));
  const who = identifierOf(c, input);
  await limit(c, "OTP_LIMITER", "otp-send", who.value);
  return ok(c, null, { message: await requestCode(accountsEnv(c), who, input.purpose, lang(c)) });
});

authRoutes.post("/code-password-verify", async (c) => {
  await limit(c, "AUTH_LIMITER", "otp-verify", null);
  const input = await body(c, (f) =>
    v.object({ email: f.optionalEmail, phone: f.optionalPhone, code: f.code, purpose: f.purpose }),
  );
  const who: Identifier = identifierOf(c, input);
  // Counted on AUTH_LIMITER (10 a minute) per identifier and network, so that a stranger's tries
  // never block the owner's; guessing across networks is bounded by the daily budget (otp.ts).
  await limit(c, "AUTH_LIMITER", "otp-verify", who.value, true);
  const result = await verifyCode(accountsEnv(c), who, input.purpose, input.code, lang(c), requestNetwork(c));
  if (result.purpose === "verify") return ok(c, { verified: true }, { message: say(lang(c), MESSAGES.verified) });
  return ok(c, { reset_token: result.reset_token }, { message: say(lang(c), MESSAGES.codeAccepted) });
});

authRoutes.post("/update-password", async (c) => {
  // Per IP only: a 256-bit token cannot be guessed, and there is no account name to count against.
  await limit(c, "AUTH_LIMITER", "update-password", null);
  const input = await body(c, (f) =>
    v.object({ reset_token: f.resetToken, password: f.password, password_confirmation: f.confirmation }),
  );
  confirmed(c, input);
  await resetPassword(accountsEnv(c), input.reset_token, input.password, lang(c));
  return ok(c, null, { message: say(lang(c), MESSAGES.passwordChanged) });
});

authRoutes.post("/check-password", async (c) => {
  const userId = await requireUser(c);
  const input = await body(c, (f) => v.object({ password: f.loginPassword }));
  await limit(c, "AUTH_LIMITER", "check-password", `user:${userId}`);
  const valid = await checkPassword(accountsEnv(c), userId, input.password);
  // The refusal's wording comes from here, so the change-password form says what the backend says.
  return ok(c, { valid }, valid ? {} : { message: say(lang(c), MESSAGES.currentPasswordWrong) });
});

authRoutes.post("/change-password", async (c) => {
  const userId = await requireUser(c);
  const input = await body(c, (f) =>
    v.object({ current_password: f.loginPassword, password: f.password, password_confirmation: f.confirmation }),
  );
  confirmed(c, input);
  await limit(c, "AUTH_LIMITER", "change-password", `user:${userId}`);
  await changePassword(accountsEnv(c), userId, bearerToken(c) ?? "", input.current_password, input.password, lang(c));
  return ok(c, null, { message: say(lang(c), MESSAGES.passwordChanged) });
});

authRoutes.get("/profile", async (c) => {
  const userId = await requireUser(c);
  return ok(c, await getProfile(accountsEnv(c), userId, lang(c)));
});

authRoutes.post("/profile", async (c) => {
  const userId = await requireUser(c);
  // The email is required of an account that has one (the service says so): one made by a phone
  // code may have none. `code`: the proof of a change for an account with no password.
  const input = await body(c, (f) =>
    v.object({
      name: f.name,
      email: f.optionalEmail,
      phone: f.optionalPhone,
      current_password: f.currentPassword,
      code: f.optionalCode,
    }),
  );
  // A changed email is sent a code at once, and a change checks the password: this keeps the
  // profile from being a mail cannon or a password oracle.
  await limit(c, "AUTH_LIMITER", "profile", `user:${userId}`);
  const { user, pending } = await updateProfile(
    accountsEnv(c),
    userId,
    bearerToken(c) ?? "",
    {
      name: input.name,
      email: input.email,
      phone: input.phone || null,
      current_password: input.current_password,
      code: input.code,
      network: requestNetwork(c),
    },
    lang(c),
  );
  return ok(c, user, { message: say(lang(c), pending ? MESSAGES.profileSavedPending : MESSAGES.profileSaved) });
});

/**
 * Signing in with a code (services/accounts/code-sign-in.ts): a code to any phone or email,
 * whether or not an account has it, counted like every code request (per IP, per identifier).
 */
authRoutes.post("/code/request", async (c) => {
  await limit(c, "OTP_LIMITER", "otp-send", null);
  const input = await body(c, (f) => v.object({ email: f.optionalEmail, phone: f.optionalPhone }));
  const who = identifierOf(c, input);
  await limit(c, "OTP_LIMITER", "otp-send", who.value);
  return ok(c, null, { message: await requestSignInCode(accountsEnv(c), who, lang(c)) });
});

/** A right code signs in (and makes the account for a new number or address), like /login. */
authRoutes.post("/code/verify", async (c) => {
  await limit(c, "AUTH_LIMITER", "otp-verify", null);
  // `password`: only when a right code answered 409 `needs_password` (an unproven phone).
  const input = await body(c, (f) =>
    v.object({ email: f.optionalEmail, phone: f.optionalPhone, code: f.code, password: f.currentPassword }),
  );
  const who = identifierOf(c, input);
  // As code-password-verify: per identifier and network, so a stranger's tries never block the owner's.
  await limit(c, "AUTH_LIMITER", "otp-verify", who.value, true);
  const { created, ...signedIn } = await verifySignInCode(
    accountsEnv(c),
    who,
    input.code,
    lang(c),
    requestNetwork(c),
    input.password,
  );
  await mergeCart(c, signedIn.user.id);
  return ok(c, signedIn, { message: say(lang(c), created ? CODE_MESSAGES.welcome : CODE_MESSAGES.signedIn) });
});

/** The name step after a first code sign-in. */
authRoutes.post("/name", async (c) => {
  const userId = await requireUser(c);
  const input = await body(c, (f) => v.object({ name: f.name }));
  await limit(c, "AUTH_LIMITER", "profile", `user:${userId}`);
  return ok(c, await saveName(accountsEnv(c), userId, input.name, lang(c)), {
    message: say(lang(c), CODE_MESSAGES.nameSaved),
  });
});

authRoutes.get("/social/platforms", (c) => ok(c, socialPlatforms(c.env.SOCIAL_PROVIDERS)));

authRoutes.post("/logout", async (c) => {
  await requireUser(c);
  const token = bearerToken(c);
  if (token) await revokeToken(c.env.DB, token);
  return ok(c, null, { message: say(lang(c), MESSAGES.loggedOut) });
});

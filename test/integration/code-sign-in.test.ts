import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { mintGuestId } from "../../worker/backend/identity";
import {
  addressSubject,
  counterKey,
  OTP_MAX_ATTEMPTS,
  OTP_TTL_SECONDS,
} from "../../worker/backend/services/accounts/otp";
import { UNUSABLE_PASSWORD } from "../../worker/backend/services/accounts/password";
import {
  call,
  freshEmail,
  freshIp,
  freshPhone,
  latestCode,
  outbox,
  register,
  SLOW_CRYPTO_TIMEOUT,
  STRONG_PASSWORD,
} from "../support/accounts";
import { createProduct } from "../support/commerce";

const request = (body: Record<string, unknown>, opts: { ip?: string; lang?: "en" | "ar" } = {}) =>
  call("POST", "/client/auth/code/request", body, opts);
const verify = (body: Record<string, unknown>, opts: { ip?: string; headers?: Record<string, string> } = {}) =>
  call("POST", "/client/auth/code/verify", body, opts);

const SENT = "We sent you a sign-in code. It expires in 10 minutes.";
const INVALID = "The code is invalid or has expired.";

/** Moves the sign-in codes of an account, or of a number or address with none, into the past. */
async function ageCodes(owner: { userId: number } | { address: string }, seconds: number): Promise<void> {
  const [column, value] =
    "userId" in owner ? ["user_id", owner.userId] : ["subject", await addressSubject(env, owner.address)];
  await env.DB.prepare(
    `UPDATE otp_codes SET created_at = created_at - ?1, expires_at = expires_at - ?1 WHERE ${column} = ?2 AND purpose = 'sign_in'`,
  )
    .bind(seconds, value)
    .run();
}

/** A number with no account, signed in by its code: the new account's session. */
async function signUpByPhone(phone = freshPhone()) {
  expect((await request({ phone })).status).toBe(200);
  const res = await verify({ phone, code: await latestCode(phone, "sign_in") });
  expect(res.status).toBe(200);
  return { phone, res, token: res.body.data.auth_data.access_token as string, id: res.body.data.user.id as number };
}

/**
 * Proves a registered account's phone the way a shopper does: a verification code asked for by
 * the phone goes to the phone, and using it proves the number (phone_verified_at).
 */
async function provePhone(user: { id: number; phone: string }): Promise<void> {
  // Registration sent a verification code to the email just now: the resend throttle would hold this one.
  await env.DB.prepare(
    "UPDATE otp_codes SET created_at = created_at - 61, expires_at = expires_at - 61 WHERE user_id = ? AND purpose = 'verify'",
  )
    .bind(user.id)
    .run();
  expect((await call("POST", "/client/auth/resend-code", { phone: user.phone, purpose: "verify" })).status).toBe(200);
  const res = await call("POST", "/client/auth/code-password-verify", {
    phone: user.phone,
    code: await latestCode(user.phone, "verify"),
    purpose: "verify",
  });
  expect(res.status).toBe(200);
}

const phoneProvenAt = (id: number) =>
  env.DB.prepare("SELECT phone_verified_at FROM users WHERE id = ?").bind(id).first<string | null>("phone_verified_at");

const wrong = (code: string) => (code === "000000" ? "111111" : "000000");

describe("signing in with a code", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("signs an existing account in by its proven phone, with the same session as a password login", async () => {
    const user = await register();
    await provePhone(user);
    const asked = await request({ phone: user.phone });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ data: null, message: SENT });
    const sent = (await outbox(user.phone)).filter((e) => e.purpose === "sign_in");
    expect(sent).toHaveLength(1);
    const res = await verify({ phone: user.phone, code: sent[0].code });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("You are signed in.");
    expect(res.body.data.user).toEqual({
      id: user.id,
      name: "Sara Ahmed",
      email: user.email,
      phone: user.phone,
      verified: true,
    });
    expect(res.body.data.needs_name).toBe(false);
    expect(res.body.data.auth_data.access_token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const profile = await call("GET", "/client/auth/profile", undefined, {
      token: res.body.data.auth_data.access_token,
    });
    expect(profile.status).toBe(200);
    expect(profile.body.data.id).toBe(user.id);
    // An account's code, not an address code: no row names the number.
    const codes = await env.DB.prepare(
      "SELECT user_id, subject FROM otp_codes WHERE user_id = ? AND purpose = 'sign_in'",
    )
      .bind(user.id)
      .all();
    expect(codes.results).toEqual([{ user_id: user.id, subject: null }]);
  });

  it("signs an existing account in by its email, by email, and that proves the email", async () => {
    const user = await register();
    expect((await request({ email: user.email.toUpperCase() })).status).toBe(200);
    const entry = (await outbox(user.email)).find((e) => e.purpose === "sign_in");
    expect(entry).toBeDefined();
    const mail = await env.DB.prepare(
      "SELECT channel, subject FROM dev_outbox WHERE recipient = ? AND purpose = 'sign_in'",
    )
      .bind(user.email)
      .first();
    expect(mail).toEqual({ channel: "email", subject: "Your sign-in code" });
    const res = await verify({ email: user.email, code: entry!.code });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ id: user.id, verified: true });
  });

  it("the code goes in the request's language", async () => {
    const phone = freshPhone();
    expect((await request({ phone }, { lang: "ar" })).body.message).toBe(
      "أرسلنا إليك رمز تسجيل الدخول. تنتهي صلاحيته خلال 10 دقائق.",
    );
    await latestCode(phone, "sign_in");
    const sms = await env.DB.prepare(
      "SELECT channel, lang, body FROM dev_outbox WHERE recipient = ? AND purpose = 'sign_in'",
    )
      .bind(phone)
      .first<{ channel: string; lang: string; body: string }>();
    expect(sms).toMatchObject({ channel: "sms", lang: "ar" });
    expect(sms!.body).toContain("رمز تسجيل دخولك");
  });

  it("a number with no account gets a code, and the code makes a phone-only, verified account that needs a name", async () => {
    const phone = freshPhone();
    const { res, token, id } = await signUpByPhone(phone);
    expect(res.body.message).toBe("Welcome! Your account is ready.");
    expect(res.body.data.needs_name).toBe(true);
    expect(res.body.data.user).toEqual({ id, name: "", email: null, phone, verified: true, code_only: true });
    const row = await env.DB.prepare("SELECT name, email, phone, password_hash, verified_at FROM users WHERE id = ?")
      .bind(id)
      .first<Record<string, string | null>>();
    expect(row).toMatchObject({ name: "", email: null, phone, password_hash: UNUSABLE_PASSWORD });
    expect(row!.verified_at).not.toBeNull();
    // The name step.
    const named = await call("POST", "/client/auth/name", { name: "  Huda Saleh " }, { token });
    expect(named.status).toBe(200);
    expect(named.body).toEqual({
      data: expect.objectContaining({ id, name: "Huda Saleh" }),
      message: "Your name is saved.",
    });
    // The next sign-in finds the account, named.
    const next = await signUpByPhone(phone);
    expect(next.id).toBe(id);
    expect(next.res.body.data.needs_name).toBe(false);
    expect(next.res.body.message).toBe("You are signed in.");
  });

  it("an email with no account makes an email-only account", async () => {
    const email = freshEmail();
    expect((await request({ email })).status).toBe(200);
    const res = await verify({ email, code: await latestCode(email, "sign_in") });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ email, phone: null, verified: true, name: "" });
    expect(res.body.data.needs_name).toBe(true);
  });

  it("the name step needs a session and a name", async () => {
    expect((await call("POST", "/client/auth/name", { name: "Huda" })).status).toBe(401);
    const { token } = await signUpByPhone();
    const empty = await call("POST", "/client/auth/name", { name: "   " }, { token });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.errors)).toEqual(["name"]);
    const long = await call("POST", "/client/auth/name", { name: "x".repeat(500) }, { token });
    expect(long.status).toBe(422);
  });

  it("a wrong code is one generic 422 on `code`, for a known and an unknown number alike", async () => {
    const user = await register();
    await request({ phone: user.phone });
    const code = await latestCode(user.phone, "sign_in");
    const unknown = freshPhone();
    await request({ phone: unknown });
    const unknownCode = await latestCode(unknown, "sign_in");
    const a = await verify({ phone: user.phone, code: wrong(code) });
    const b = await verify({ phone: unknown, code: wrong(unknownCode) });
    const never = await verify({ phone: freshPhone(), code: "123456" });
    for (const res of [a, b, never]) {
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: INVALID, errors: { code: [INVALID] } });
    }
  });

  it("asking gives the same answer for a known and an unknown number or email", async () => {
    const user = await register();
    const answers = [
      await request({ phone: user.phone }),
      await request({ phone: freshPhone() }),
      await request({ email: user.email }),
      await request({ email: freshEmail() }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: null, message: SENT });
    }
  });

  it("a code expires after 10 minutes", async () => {
    const phone = freshPhone();
    await request({ phone });
    const code = await latestCode(phone, "sign_in");
    await ageCodes({ address: phone }, OTP_TTL_SECONDS);
    expect((await verify({ phone, code })).status).toBe(422);
    const user = await register();
    await request({ phone: user.phone });
    const userCode = await latestCode(user.phone, "sign_in");
    await ageCodes({ userId: user.id }, OTP_TTL_SECONDS);
    expect((await verify({ phone: user.phone, code: userCode })).status).toBe(422);
  });

  it("allows 5 tries from one network; another network still has its own", async () => {
    const phone = freshPhone();
    await request({ phone });
    const code = await latestCode(phone, "sign_in");
    const ip = freshIp();
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++)
      expect((await verify({ phone, code: wrong(code) }, { ip })).status).toBe(422);
    expect((await verify({ phone, code }, { ip })).status).toBe(422);
    expect((await verify({ phone, code }, { ip: `172.${ip.split(".").slice(1).join(".")}` })).status).toBe(200);
  });

  it("resending is throttled to one a minute (silently), and too many asks from one address are a 429", async () => {
    const phone = freshPhone();
    const ip = freshIp();
    expect((await request({ phone }, { ip })).status).toBe(200);
    const first = await latestCode(phone, "sign_in");
    const again = await request({ phone }, { ip });
    expect(again.body).toEqual({ data: null, message: SENT });
    expect((await outbox(phone)).filter((e) => e.purpose === "sign_in")).toHaveLength(1);
    // The old code still works, since no new one retired it.
    let limited = null;
    for (let i = 0; i < 12 && !limited; i++) {
      const res = await request({ phone }, { ip });
      if (res.status === 429) limited = res;
    }
    expect(limited?.status).toBe(429);
    expect(limited?.headers.get("retry-after")).toBe("60");
    expect((await verify({ phone, code: first })).status).toBe(200);
  });

  it("a code is single use", async () => {
    const { phone } = await signUpByPhone();
    const code = (await outbox(phone)).find((e) => e.purpose === "sign_in")!.code;
    const reuse = await verify({ phone, code });
    expect(reuse.status).toBe(422);
    expect(reuse.body.errors.code).toEqual([INVALID]);
  });

  it("brings a known guest's cart into the account, new or existing", async () => {
    const product = await createProduct({ stock: 10, maxPerOrder: 5 });
    for (const existing of [false, true]) {
      const guestId = await mintGuestId(env);
      const headers = { "guest-id": guestId };
      expect(
        (await call("POST", "/cart/add-product", { product_id: product.id, quantity: 2 }, { headers })).status,
      ).toBe(200);
      const user = existing ? await register() : null;
      if (user) await provePhone(user);
      const phone = user?.phone ?? freshPhone();
      await request({ phone });
      const res = await verify({ phone, code: await latestCode(phone, "sign_in") }, { headers });
      expect(res.status).toBe(200);
      const cart = await call("GET", "/cart", undefined, { token: res.body.data.auth_data.access_token });
      expect(cart.body.data.products).toEqual([expect.objectContaining({ product_id: product.id, quantity: 2 })]);
    }
  });

  it("a code-only account can never sign in with a password, and answers as any wrong password does", async () => {
    const { phone } = await signUpByPhone();
    for (const password of [UNUSABLE_PASSWORD, "code-only", STRONG_PASSWORD, ""]) {
      const res = await call("POST", "/client/auth/login", { phone, password });
      expect(res.status).toBe(422);
    }
    const res = await call("POST", "/client/auth/login", { phone, password: STRONG_PASSWORD });
    const unknown = await call("POST", "/client/auth/login", { phone: freshPhone(), password: STRONG_PASSWORD });
    expect(res.body).toEqual(unknown.body);
  });

  it("a code-only account sets its name, and proves a change of phone or email with a code to its current number", async () => {
    const { phone, token, id } = await signUpByPhone();
    // The name alone needs nothing, and no email.
    const named = await call("POST", "/client/auth/profile", { name: "Huda", email: "", phone }, { token });
    expect(named.status).toBe(200);
    expect(named.body.data).toMatchObject({ id, name: "Huda", email: null, phone });
    // Adding an email is a change: without a code it is refused, a password is no use.
    const email = freshEmail();
    const noCode = await call(
      "POST",
      "/client/auth/profile",
      { name: "Huda", email, phone, current_password: STRONG_PASSWORD },
      { token },
    );
    expect(noCode.status).toBe(422);
    expect(Object.keys(noCode.body.errors)).toEqual(["code"]);
    const badCode = await call(
      "POST",
      "/client/auth/profile",
      { name: "Huda", email, phone, code: "000000" },
      { token },
    );
    expect(badCode.status).toBe(422);
    expect(badCode.body.errors.code).toEqual([INVALID]);
    await ageCodes({ userId: id }, 61);
    expect((await request({ phone })).status).toBe(200);
    const code = await latestCode(phone, "sign_in");
    const added = await call("POST", "/client/auth/profile", { name: "Huda", email, phone, code }, { token });
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({ email: null, pending_email: email });
    // The new email is confirmed by the code sent to it, as for any account.
    const confirmed = await call("POST", "/client/auth/code-password-verify", {
      email,
      code: await latestCode(email, "verify"),
      purpose: "verify",
    });
    expect(confirmed.status).toBe(200);
    expect((await call("GET", "/client/auth/profile", undefined, { token })).body.data).toMatchObject({ email, phone });
    // The code was used up: the same code cannot prove another change.
    const reused = await call(
      "POST",
      "/client/auth/profile",
      { name: "Huda", email, phone: freshPhone(), code },
      { token },
    );
    expect(reused.status).toBe(422);
    // With an email now, the email stays required, and a phone-only account cannot drop its phone.
    const noEmail = await call("POST", "/client/auth/profile", { name: "Huda", email: "", phone }, { token });
    expect(noEmail.status).toBe(422);
    expect(Object.keys(noEmail.body.errors)).toEqual(["email"]);
    const phoneOnly = await signUpByPhone();
    const dropped = await call(
      "POST",
      "/client/auth/profile",
      { name: "Ali", email: "", phone: "" },
      { token: phoneOnly.token },
    );
    expect(dropped.status).toBe(422);
    expect(Object.keys(dropped.body.errors)).toEqual(["phone"]);
  });

  it("a password account keeps its protections: a change still needs the current password, not a code", async () => {
    const user = await register();
    await request({ phone: user.phone });
    const code = await latestCode(user.phone, "sign_in");
    const res = await call(
      "POST",
      "/client/auth/profile",
      { name: "Sara", email: user.email, phone: freshPhone(), code },
      { token: user.token },
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["current_password"]);
    const noEmail = await call(
      "POST",
      "/client/auth/profile",
      { name: "Sara", email: "", phone: user.phone },
      { token: user.token },
    );
    expect(noEmail.status).toBe(422);
    expect(Object.keys(noEmail.body.errors)).toEqual(["email"]);
  });

  it("only numbers of a delivery country are sent a code", async () => {
    for (const phone of ["+447700900123", "+12025550123"]) {
      const res = await request({ phone });
      expect(res.status).toBe(422);
      expect(res.body.errors.phone).toEqual(["We can send sign-in codes only to Saudi mobile numbers."]);
      expect(await outbox(phone)).toHaveLength(0);
    }
    // Spaces and dashes are dropped: the code goes to, and is checked for, the E.164 number.
    const phone = freshPhone();
    expect((await request({ phone: `${phone.slice(0, 4)} ${phone.slice(4, 6)}-${phone.slice(6)}` })).status).toBe(200);
    expect(await latestCode(phone, "sign_in")).toMatch(/^\d{6}$/);
  });

  it("bad input is a 422 naming the fields, never a 500", async () => {
    const none = await request({});
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.errors)).toEqual(["email"]);
    const badEmail = await request({ email: "not-an-email" });
    expect(badEmail.status).toBe(422);
    expect(Object.keys(badEmail.body.errors)).toEqual(["email"]);
    const badPhone = await request({ phone: "+96612ab" });
    expect(badPhone.status).toBe(422);
    expect(Object.keys(badPhone.body.errors)).toEqual(["phone"]);
    const badCode = await verify({ phone: freshPhone(), code: "12ab" });
    expect(badCode.status).toBe(422);
    expect(Object.keys(badCode.body.errors)).toEqual(["code"]);
    const wrongTypes = await verify({ phone: 966500000000, code: 123456 });
    expect(wrongTypes.status).toBe(422);
    const malformed = await call("POST", "/client/auth/code/request", undefined, {
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(422);
  });
});

describe("a phone that was typed, never proven", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  const NEEDS_PASSWORD =
    "This number was added to an account with a password that was never confirmed by a code. Enter the account's password to sign in.";

  it("someone who registered another person's number: a code alone does not sign in; with the password it does, and ends their other sessions", async () => {
    const phone = freshPhone();
    // The registrant typed a number that is not theirs, and is signed in.
    const squatter = await register({ phone });
    expect(await phoneProvenAt(squatter.id)).toBeNull();
    const theirs = await call("POST", "/client/auth/login", { phone, password: STRONG_PASSWORD });
    expect(theirs.status).toBe(200);
    const theirToken = theirs.body.data.auth_data.access_token as string;
    // The number's owner asks for a code: the same answer as for any number.
    expect((await request({ phone })).body).toEqual({ data: null, message: SENT });
    const code = await latestCode(phone, "sign_in");
    const held = await verify({ phone, code });
    expect(held.status).toBe(409);
    expect(held.body).toEqual({ needs_password: true, message: NEEDS_PASSWORD });
    expect(held.body.data).toBeUndefined();
    // Not used up: the same code with a wrong password is a 422 on `password`, counted as a failed login.
    const badPassword = await verify({ phone, code, password: "not-the-password-1" });
    expect(badPassword.status).toBe(422);
    expect(badPassword.body.errors).toEqual({ password: ["The password is not right."] });
    const failures = await env.DB.prepare("SELECT count FROM account_counters WHERE key = ?")
      .bind(await counterKey("login-failed", `phone:${phone}`))
      .first<number>("count");
    expect(failures).toBe(1);
    // The code and the right password together sign in, prove the phone and end every other session.
    const confirmed = await verify({ phone, code, password: STRONG_PASSWORD });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.user.id).toBe(squatter.id);
    expect(confirmed.body.message).toBe("You are signed in.");
    expect(await phoneProvenAt(squatter.id)).toMatch(/^\d{4}-/);
    expect((await call("GET", "/client/auth/profile", undefined, { token: theirToken })).status).toBe(401);
    expect((await call("GET", "/client/auth/profile", undefined, { token: squatter.token })).status).toBe(401);
    const mine = confirmed.body.data.auth_data.access_token as string;
    expect((await call("GET", "/client/auth/profile", undefined, { token: mine })).status).toBe(200);
    // The code is now used up, and the phone is proven: the next code alone signs in.
    expect((await verify({ phone, code, password: STRONG_PASSWORD })).status).toBe(422);
    await ageCodes({ userId: squatter.id }, 61);
    await request({ phone });
    const next = await verify({ phone, code: await latestCode(phone, "sign_in") });
    expect(next.status).toBe(200);
    expect(next.body.data.user.id).toBe(squatter.id);
  });

  it("a wrong code for an unproven phone answers as for any other number, and a code alone never consumes it", async () => {
    const user = await register();
    const unknown = freshPhone();
    const proven = await register();
    await provePhone(proven);
    const answers = [];
    for (const phone of [user.phone, unknown, proven.phone]) {
      const asked = await request({ phone });
      expect(asked.body).toEqual({ data: null, message: SENT });
      const res = await verify({ phone, code: "000000", password: STRONG_PASSWORD });
      answers.push({ status: res.status, body: res.body });
    }
    expect(answers[0]).toEqual({ status: 422, body: { message: INVALID, errors: { code: [INVALID] } } });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    // The right code without the password is answered again and again (each a counted try).
    const code = await latestCode(user.phone, "sign_in");
    for (let i = 0; i < 2; i++) expect((await verify({ phone: user.phone, code })).status).toBe(409);
    const live = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM otp_codes WHERE user_id = ? AND purpose = 'sign_in' AND consumed_at IS NULL",
    )
      .bind(user.id)
      .first<number>("n");
    expect(live).toBe(1);
  });

  it("a change of phone clears the proof; a code to the new number then needs the password", async () => {
    const user = await register();
    await provePhone(user);
    expect(await phoneProvenAt(user.id)).not.toBeNull();
    const phone = freshPhone();
    const changed = await call(
      "POST",
      "/client/auth/profile",
      { name: "Sara Ahmed", email: user.email, phone, current_password: STRONG_PASSWORD },
      { token: user.token },
    );
    expect(changed.status).toBe(200);
    expect(await phoneProvenAt(user.id)).toBeNull();
    await request({ phone });
    const code = await latestCode(phone, "sign_in");
    expect((await verify({ phone, code })).status).toBe(409);
    expect((await verify({ phone, code, password: STRONG_PASSWORD })).status).toBe(200);
    expect(await phoneProvenAt(user.id)).not.toBeNull();
    // A change that leaves the number as it was keeps the proof.
    const renamed = await call(
      "POST",
      "/client/auth/profile",
      { name: "Sara A.", email: user.email, phone },
      {
        token: (await call("POST", "/client/auth/login", { phone, password: STRONG_PASSWORD })).body.data.auth_data
          .access_token,
      },
    );
    expect(renamed.status).toBe(200);
    expect(await phoneProvenAt(user.id)).not.toBeNull();
  });

  it("a reset code sent to the phone proves it, and an account made by a phone code is proven", async () => {
    const user = await register();
    await call("POST", "/client/auth/reset-password", { phone: user.phone });
    const reset = await call("POST", "/client/auth/code-password-verify", {
      phone: user.phone,
      code: await latestCode(user.phone, "reset"),
      purpose: "reset",
    });
    expect(reset.status).toBe(200);
    expect(await phoneProvenAt(user.id)).not.toBeNull();
    const { id } = await signUpByPhone();
    expect(await phoneProvenAt(id)).not.toBeNull();
  });

  it("a number added to a code-only account is not proven: its code makes the number an account of its own", async () => {
    const email = freshEmail();
    await request({ email });
    const first = await verify({ email, code: await latestCode(email, "sign_in") });
    expect(first.status).toBe(200);
    const owner = { id: first.body.data.user.id as number, token: first.body.data.auth_data.access_token as string };
    // The account's holder adds a number, proving the change with a code to the email, not to the number.
    const phone = freshPhone();
    await ageCodes({ userId: owner.id }, 61);
    await request({ email });
    const added = await call(
      "POST",
      "/client/auth/profile",
      { name: "Mona", email, phone, code: await latestCode(email, "sign_in") },
      { token: owner.token },
    );
    expect(added.status).toBe(200);
    expect(await phoneProvenAt(owner.id)).toBeNull();
    // The number's owner signs in by code: a new account, not the one the number was added to.
    await ageCodes({ userId: owner.id }, 61);
    await request({ phone });
    const res = await verify({ phone, code: await latestCode(phone, "sign_in") });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Welcome! Your account is ready.");
    expect(res.body.data.user).toMatchObject({ email: null, phone });
    expect(res.body.data.user.id).not.toBe(owner.id);
    expect(await phoneProvenAt(res.body.data.user.id)).not.toBeNull();
    const before = await call("GET", "/client/auth/profile", undefined, { token: owner.token });
    expect(before.body.data).toMatchObject({ id: owner.id, email, phone: null });
  });
});

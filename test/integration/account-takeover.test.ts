// Account takeover and owner lock-out (security review M4 and L3, L4). Each test is named after
// the attack it stops.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LOGIN_DELAY_MAX_MS } from "../../worker/backend/services/accounts/accounts";
import { counterKey, OTP_MAX_ATTEMPTS, OTP_MAX_FAILED_PER_DAY } from "../../worker/backend/services/accounts/otp";
import {
  call,
  freshEmail,
  freshIp,
  freshPhone,
  latestCode,
  outbox,
  register,
  STRONG_PASSWORD,
  SLOW_CRYPTO_TIMEOUT,
} from "../support/accounts";

const profile = (token: string, body: Record<string, unknown>) => call("POST", "/client/auth/profile", body, { token });
const login = (who: Record<string, string>, ip?: string) => call("POST", "/client/auth/login", who, { ip });
const wrongCodeFor = (code: string) => (code === "000000" ? "111111" : "000000");

describe("email change without the password (M4)", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("email change without the password: a stolen token alone cannot change the email or the phone", async () => {
    const victim = await register();
    const attacker = freshEmail();
    const missing = await profile(victim.token, { name: "Victim", email: attacker, phone: victim.phone });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({
      current_password: ["Enter your current password to change your email or phone."],
    });
    const wrong = await profile(victim.token, {
      name: "Victim",
      email: attacker,
      phone: victim.phone,
      current_password: "a guessed password",
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ current_password: ["The current password is incorrect."] });
    const phone = await profile(victim.token, { name: "Victim", email: victim.email, phone: freshPhone() });
    expect(phone.status).toBe(422);
    expect(Object.keys(phone.body.errors)).toEqual(["current_password"]);
    const arabic = await call(
      "POST",
      "/client/auth/profile",
      { name: "Victim", email: attacker, phone: victim.phone },
      { token: victim.token, lang: "ar" },
    );
    expect(arabic.body.errors.current_password).toEqual([
      "أدخل كلمة المرور الحالية لتغيير بريدك الإلكتروني أو رقم جوالك.",
    ]);

    // The review's chain stops at its first step: nothing changed, and no code goes to the attacker.
    const read = await call("GET", "/client/auth/profile", undefined, { token: victim.token });
    expect(read.body.data).toMatchObject({ email: victim.email, phone: victim.phone });
    expect(read.body.data.pending_email).toBeUndefined();
    await call("POST", "/client/auth/reset-password", { email: attacker });
    expect(await outbox(attacker)).toEqual([]);
  });

  it("email change: the old address is told, and stays the login and reset identifier until the new one is verified", async () => {
    const user = await register();
    const next = freshEmail();
    const saved = await profile(user.token, {
      name: "Sara",
      email: next,
      phone: user.phone,
      current_password: user.password,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ email: user.email, pending_email: next });

    const notices = (await outbox(user.email)).filter((m) => m.purpose === "email-changed");
    expect(notices).toHaveLength(1);
    expect(notices[0].code).toBe("");

    // Until the code is entered: the old email signs in and resets; the new one does neither.
    expect((await login({ email: user.email, password: user.password })).status).toBe(200);
    expect((await login({ email: next, password: user.password })).status).toBe(422);
    await call("POST", "/client/auth/reset-password", { email: next });
    expect((await outbox(next)).map((m) => m.purpose)).toEqual(["verify"]);
    await call("POST", "/client/auth/reset-password", { email: user.email });
    expect((await outbox(user.email)).map((m) => m.purpose)).toContain("reset");

    // The code sent to the new address works only with that address.
    const code = await latestCode(next, "verify");
    expect(
      (await call("POST", "/client/auth/code-password-verify", { email: user.email, code, purpose: "verify" })).status,
    ).toBe(422);
    expect(
      (await call("POST", "/client/auth/code-password-verify", { email: next, code, purpose: "verify" })).status,
    ).toBe(200);
    expect((await login({ email: next, password: user.password })).status).toBe(200);
    expect((await login({ email: user.email, password: user.password })).status).toBe(422);
  });

  it("email change: the code for a pending email can be sent again to that address", async () => {
    const user = await register();
    const next = freshEmail();
    await profile(user.token, { name: "Sara", email: next, phone: user.phone, current_password: user.password });
    await outbox(next);
    await env.DB.prepare("UPDATE otp_codes SET created_at = created_at - 120 WHERE user_id = ?").bind(user.id).run();
    const resent = await call("POST", "/client/auth/resend-code", { email: next, purpose: "verify" });
    expect(resent.status).toBe(200);
    expect((await outbox(next)).map((m) => m.purpose)).toEqual(["verify", "verify"]);
    expect(
      (
        await call("POST", "/client/auth/code-password-verify", {
          email: next,
          code: await latestCode(next, "verify"),
          purpose: "verify",
        })
      ).status,
    ).toBe(200);
  });

  it("email change revokes the account's other bearer tokens and keeps this one", async () => {
    const user = await register();
    const other = (await login({ email: user.email, password: user.password })).body.data.auth_data.access_token;
    const renamed = await profile(other, { name: "Only a new name", email: user.email, phone: user.phone });
    expect(renamed.status).toBe(200);
    // A name alone revokes nothing.
    expect((await call("GET", "/client/auth/profile", undefined, { token: user.token })).status).toBe(200);

    const saved = await profile(user.token, {
      name: "Sara",
      email: freshEmail(),
      phone: freshPhone(),
      current_password: user.password,
    });
    expect(saved.status).toBe(200);
    expect((await call("GET", "/client/auth/profile", undefined, { token: other })).status).toBe(401);
    expect((await call("GET", "/client/auth/profile", undefined, { token: user.token })).status).toBe(200);
  });
});

describe("per-account counters abuse (L3, L4)", { timeout: 60_000 }, () => {
  // Eleven PBKDF2 sign-ins with the lockout's growing delay: 10 s on a quiet machine, 60 s allowed.
  it("login lockout: ten wrong passwords from other networks do not lock the owner out; answers slow down, capped", async () => {
    const owner = await register();
    for (let i = 0; i < 10; i++)
      expect((await login({ email: owner.email, password: `guess number ${i}` }, freshIp())).status).toBe(422);
    const start = performance.now();
    const mine = await login({ email: owner.email, password: owner.password }, freshIp());
    const took = performance.now() - start;
    expect(mine.status).toBe(200);
    // Slowed by the failures (the delay is capped), never refused.
    expect(took).toBeGreaterThanOrEqual(LOGIN_DELAY_MAX_MS * 0.9);
    expect(took).toBeLessThan(LOGIN_DELAY_MAX_MS + 5_000);
    // The owner got in: the next answer is no longer slowed.
    const again = performance.now();
    expect((await login({ email: owner.email, password: owner.password }, freshIp())).status).toBe(200);
    expect(performance.now() - again).toBeLessThan(LOGIN_DELAY_MAX_MS * 0.9);
  }, 60_000);

  it("login lockout: the slow-down is the same for an unknown identifier, so it reveals nothing", async () => {
    const nobody = freshEmail();
    for (let i = 0; i < 6; i++) await login({ email: nobody, password: `guess number ${i}` }, freshIp());
    const start = performance.now();
    expect((await login({ email: nobody, password: "guess again" }, freshIp())).status).toBe(422);
    expect(performance.now() - start).toBeGreaterThanOrEqual(400);
  });

  it("burning reset codes: a stranger spending the tries of the victim's live reset code does not stop the owner's code", async () => {
    const victim = await register();
    await call("POST", "/client/auth/reset-password", { email: victim.email });
    const code = await latestCode(victim.email, "reset");
    const stranger = freshIp();
    for (let i = 0; i <= OTP_MAX_ATTEMPTS; i++) {
      const res = await call(
        "POST",
        "/client/auth/code-password-verify",
        { email: victim.email, code: wrongCodeFor(code), purpose: "reset" },
        { ip: stranger },
      );
      expect([422, 429]).toContain(res.status);
    }
    // The stranger's own network has no tries left, even with the right code.
    expect(
      (
        await call(
          "POST",
          "/client/auth/code-password-verify",
          { email: victim.email, code, purpose: "reset" },
          { ip: stranger },
        )
      ).status,
    ).not.toBe(200);
    const owner = await call(
      "POST",
      "/client/auth/code-password-verify",
      { email: victim.email, code, purpose: "reset" },
      { ip: freshIp() },
    );
    expect(owner.status).toBe(200);
    expect(owner.body.data.reset_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("guessing codes from many networks: at most 20 failed code checks per account a day", async () => {
    const victim = await register();
    await call("POST", "/client/auth/reset-password", { email: victim.email });
    const code = await latestCode(victim.email, "reset");
    for (let i = 0; i < OTP_MAX_FAILED_PER_DAY; i++) {
      expect(
        (
          await call(
            "POST",
            "/client/auth/code-password-verify",
            { email: victim.email, code: wrongCodeFor(code), purpose: "reset" },
            { ip: freshIp() },
          )
        ).status,
      ).toBe(422);
    }
    // The day's budget is spent: even the right code is refused, from any network, with the same answer.
    const refused = await call(
      "POST",
      "/client/auth/code-password-verify",
      { email: victim.email, code, purpose: "reset" },
      { ip: freshIp() },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ code: ["The code is invalid or has expired."] });
    // The next day the budget is back (the counter's window moved a day into the past).
    const key = await counterKey("otp-failed", `user:${victim.id}`);
    await env.DB.prepare("UPDATE account_counters SET window_start = window_start - 86400 WHERE key = ?")
      .bind(key)
      .run();
    expect(
      (
        await call(
          "POST",
          "/client/auth/code-password-verify",
          { email: victim.email, code, purpose: "reset" },
          { ip: freshIp() },
        )
      ).status,
    ).toBe(200);
  });

  it("notice flooding: 'account exists' notices reach the owner at most once an hour", async () => {
    const owner = await register();
    for (let i = 0; i < 5; i++) {
      const res = await call("POST", "/client/auth/register", {
        name: "Someone",
        email: owner.email,
        phone: "",
        password: STRONG_PASSWORD,
        password_confirmation: STRONG_PASSWORD,
      });
      expect(res.status).toBe(422);
    }
    const notices = (await outbox(owner.email)).filter((m) => m.purpose === "account-exists");
    expect(notices).toHaveLength(1);
    // An hour later the owner hears of a new attempt.
    await env.DB.prepare("UPDATE account_notices SET sent_at = sent_at - 3601 WHERE user_id = ?").bind(owner.id).run();
    await call("POST", "/client/auth/register", {
      name: "Someone",
      email: owner.email,
      phone: "",
      password: STRONG_PASSWORD,
      password_confirmation: STRONG_PASSWORD,
    });
    expect((await outbox(owner.email)).filter((m) => m.purpose === "account-exists")).toHaveLength(2);
  });
});

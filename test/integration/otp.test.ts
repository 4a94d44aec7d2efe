import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { backendApp } from "../../worker/backend";
import { sha256Hex } from "../../worker/backend/identity";
import {
  HttpMessenger,
  messengerFor,
  OutboxMessenger,
  readOutbox,
} from "../../worker/backend/services/messages/messenger";
import { requestCode } from "../../worker/backend/services/accounts/accounts";
import { generateCode, OTP_MAX_ATTEMPTS, OTP_TTL_SECONDS } from "../../worker/backend/services/accounts/otp";
import {
  awayFromMinuteEdge,
  call,
  COUNTING_TIMEOUT,
  freshEmail,
  freshIp,
  freshPhone,
  latestCode,
  outbox,
  register,
  SLOW_CRYPTO_TIMEOUT,
} from "../support/accounts";

const verify = (body: Record<string, unknown>, ip?: string) =>
  call("POST", "/client/auth/code-password-verify", body, { ip });

/** Moves an account's codes into the past, as if `seconds` had gone by. */
async function ageCodes(userId: number, seconds: number): Promise<void> {
  await env.DB.prepare(
    "UPDATE otp_codes SET created_at = created_at - ?1, expires_at = expires_at - ?1 WHERE user_id = ?2",
  )
    .bind(seconds, userId)
    .run();
}

describe("one-time codes", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("are 6 random digits", () => {
    const codes = new Set(Array.from({ length: 200 }, generateCode));
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(codes.size).toBeGreaterThan(190);
  });

  it("the verification code from registration verifies the account, once", async () => {
    const user = await register();
    const code = await latestCode(user.email, "verify");
    const ok = await verify({ email: user.email, code, purpose: "verify" });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: { verified: true }, message: "Your account has been verified." });
    expect((await call("GET", "/client/auth/profile", undefined, { token: user.token })).body.data.verified).toBe(true);

    const again = await verify({ email: user.email, code, purpose: "verify" });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({
      message: "The code is invalid or has expired.",
      errors: { code: ["The code is invalid or has expired."] },
    });
  });

  it("a wrong code and an unknown account get the same answer", async () => {
    const user = await register();
    const code = await latestCode(user.email, "verify");
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const wrong = await verify({ email: user.email, code: wrongCode, purpose: "verify" });
    const unknown = await verify({ email: freshEmail(), code, purpose: "verify" });
    expect(wrong.status).toBe(422);
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
    const ar = await call(
      "POST",
      "/client/auth/code-password-verify",
      { email: user.email, code: wrongCode, purpose: "verify" },
      { lang: "ar" },
    );
    expect(ar.body.errors.code).toEqual(["الرمز غير صحيح أو انتهت صلاحيته."]);
  });

  it("allows at most 5 tries from one network: after five wrong codes even the right one is refused there", async () => {
    const user = await register();
    const code = await latestCode(user.email, "verify");
    const wrongCode = code === "000000" ? "111111" : "000000";
    const ip = freshIp();
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++)
      expect((await verify({ email: user.email, code: wrongCode, purpose: "verify" }, ip)).status).toBe(422);
    expect((await verify({ email: user.email, code, purpose: "verify" }, ip)).status).toBe(422);
    const row = await env.DB.prepare(
      "SELECT t.attempts FROM otp_tries t JOIN otp_codes c ON c.id = t.code_id WHERE c.user_id = ?",
    )
      .bind(user.id)
      .first<{ attempts: number }>();
    expect(row!.attempts).toBe(OTP_MAX_ATTEMPTS);
  });

  it("expires after 10 minutes", async () => {
    expect(OTP_TTL_SECONDS).toBe(600);
    const user = await register();
    const code = await latestCode(user.email, "verify");
    await ageCodes(user.id, OTP_TTL_SECONDS);
    expect((await verify({ email: user.email, code, purpose: "verify" })).status).toBe(422);
  });

  it("a code is only good for its own purpose", async () => {
    const user = await register();
    const code = await latestCode(user.email, "verify");
    expect((await verify({ email: user.email, code, purpose: "reset" })).status).toBe(422);
    expect((await verify({ email: user.email, code, purpose: "verify" })).status).toBe(200);
  });

  it("resending is throttled: one a minute, five an hour, and a new code retires the old one", async () => {
    const user = await register();
    const first = await latestCode(user.email, "verify");
    const resend = () => call("POST", "/client/auth/resend-code", { email: user.email, purpose: "verify" });

    const throttled = await resend();
    expect(throttled.status).toBe(200);
    expect(throttled.body.message).toBe("If an account matches these details, we have sent it a code.");
    expect(await outbox(user.email)).toHaveLength(1);

    await ageCodes(user.id, 61);
    expect((await resend()).status).toBe(200);
    // The code is issued after the answer (M3); the outbox helper waits for it to settle.
    const sent = await outbox(user.email);
    expect(sent).toHaveLength(2);
    const second = sent[0].code;
    expect((await verify({ email: user.email, code: first, purpose: "verify" })).status).toBe(
      first === second ? 200 : 422,
    );

    for (let i = 0; i < 3; i++) {
      await ageCodes(user.id, 61);
      await resend();
      await outbox(user.email);
    }
    expect(await outbox(user.email)).toHaveLength(5);
    await ageCodes(user.id, 61);
    await resend();
    expect(await outbox(user.email)).toHaveLength(5);
  });

  it("a verified account is not sent another verification code", async () => {
    const user = await register();
    await verify({ email: user.email, code: await latestCode(user.email, "verify"), purpose: "verify" });
    await ageCodes(user.id, 120);
    const res = await call("POST", "/client/auth/resend-code", { email: user.email, purpose: "verify" });
    expect(res.body.message).toBe("If an account matches these details, we have sent it a code.");
    expect(await outbox(user.email)).toHaveLength(1);
  });

  it("are stored only as hashes", async () => {
    const user = await register();
    const code = await latestCode(user.email, "verify");
    const rows = await env.DB.prepare("SELECT * FROM otp_codes WHERE user_id = ?")
      .bind(user.id)
      .all<Record<string, unknown>>();
    expect(rows.results).toHaveLength(1);
    expect(String(rows.results[0].code_hash)).toMatch(/^[0-9a-f]{64}$/);
    for (const value of Object.values(rows.results[0])) expect(String(value)).not.toBe(code);
    expect(String(rows.results[0].code_hash)).not.toContain(code);
  });

  it("verification is rate limited per address", { timeout: COUNTING_TIMEOUT }, async () => {
    await awayFromMinuteEdge();
    const ip = freshIp();
    for (let i = 0; i < 10; i++) await verify({ email: freshEmail(), code: "123456", purpose: "verify" }, ip);
    const limited = await verify({ email: freshEmail(), code: "123456", purpose: "verify" }, ip);
    expect(limited.status).toBe(429);
  });

  it("bad input is a 422 naming the fields", async () => {
    const res = await verify({ email: "someone@example.com", code: "12ab", purpose: "login" });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(["code", "purpose"]);
  });
});

describe("forgotten password", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("answers the same for a known and an unknown account, and sends a code only to the known one", async () => {
    const user = await register();
    const known = await call("POST", "/client/auth/reset-password", { email: user.email });
    const unknownEmail = freshEmail();
    const unknown = await call("POST", "/client/auth/reset-password", { email: unknownEmail });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(known.body).toEqual({ data: null, message: "If an account matches these details, we have sent it a code." });
    expect((await outbox(user.email)).map((e) => e.purpose)).toEqual(["reset", "verify"]);
    expect(await outbox(unknownEmail)).toEqual([]);
  });

  it("code → reset token → new password: the old password and every old session stop working", async () => {
    const user = await register();
    await call("POST", "/client/auth/reset-password", { email: user.email });
    const code = await latestCode(user.email, "reset");
    const checked = await verify({ email: user.email, code, purpose: "reset" });
    expect(checked.status).toBe(200);
    const resetToken: string = checked.body.data.reset_token;
    expect(resetToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const next = "my new reset passphrase";
    const updated = await call("POST", "/client/auth/update-password", {
      reset_token: resetToken,
      password: next,
      password_confirmation: next,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.message).toBe("Your password has been changed.");
    expect((await call("GET", "/client/auth/profile", undefined, { token: user.token })).status).toBe(401);
    expect((await call("POST", "/client/auth/login", { email: user.email, password: user.password })).status).toBe(422);
    const login = await call("POST", "/client/auth/login", { email: user.email, password: next });
    expect(login.status).toBe(200);
    // Receiving the code proved the inbox, so the account is verified too.
    expect(login.body.data.user.verified).toBe(true);

    // The reset token is single use.
    const reuse = await call("POST", "/client/auth/update-password", {
      reset_token: resetToken,
      password: "another passphrase",
      password_confirmation: "another passphrase",
    });
    expect(reuse.status).toBe(422);
    expect(reuse.body.errors.reset_token).toEqual(["This reset link is invalid or has expired. Ask for a new code."]);
  });

  it("works by phone, delivering the code by SMS to that number", async () => {
    const user = await register();
    await call("POST", "/client/auth/reset-password", { phone: user.phone });
    const sms = await outbox(user.phone);
    expect(sms).toEqual([
      expect.objectContaining({ to: user.phone, purpose: "reset", code: expect.stringMatching(/^\d{6}$/) }),
    ]);
    expect((await verify({ phone: user.phone, code: sms[0].code, purpose: "reset" })).status).toBe(200);
  });

  it("reset tokens are stored only as hashes and expire", async () => {
    const user = await register();
    await call("POST", "/client/auth/reset-password", { email: user.email });
    const resetToken: string = (
      await verify({ email: user.email, code: await latestCode(user.email, "reset"), purpose: "reset" })
    ).body.data.reset_token;
    const rows = await env.DB.prepare("SELECT * FROM reset_tokens WHERE user_id = ?")
      .bind(user.id)
      .all<Record<string, unknown>>();
    expect(JSON.stringify(rows.results)).not.toContain(resetToken);
    expect(rows.results[0].token_hash).toBe(await sha256Hex(resetToken));

    await env.DB.prepare("UPDATE reset_tokens SET expires_at = expires_at - 3600 WHERE user_id = ?")
      .bind(user.id)
      .run();
    const expired = await call("POST", "/client/auth/update-password", {
      reset_token: resetToken,
      password: "fresh passphrase",
      password_confirmation: "fresh passphrase",
    });
    expect(expired.status).toBe(422);
  });

  it("update-password applies the password policy and the confirmation", async () => {
    const user = await register();
    await call("POST", "/client/auth/reset-password", { email: user.email });
    const resetToken: string = (
      await verify({ email: user.email, code: await latestCode(user.email, "reset"), purpose: "reset" })
    ).body.data.reset_token;
    const common = await call("POST", "/client/auth/update-password", {
      reset_token: resetToken,
      password: "qwerty123",
      password_confirmation: "qwerty123",
    });
    expect(common.body.errors.password).toEqual(["This password is too common. Choose a less predictable one."]);
    const mismatch = await call("POST", "/client/auth/update-password", {
      reset_token: resetToken,
      password: "fresh passphrase",
      password_confirmation: "fresh passphrase!",
    });
    expect(mismatch.body.errors.password_confirmation).toBeDefined();
    // A refused attempt does not use the token up.
    expect(
      (
        await call("POST", "/client/auth/update-password", {
          reset_token: resetToken,
          password: "fresh passphrase",
          password_confirmation: "fresh passphrase",
        })
      ).status,
    ).toBe(200);
  });

  it(
    "sending codes is rate limited per address and per identifier, the same for any account",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      await awayFromMinuteEdge();
      const ip = freshIp();
      for (let i = 0; i < 5; i++)
        expect((await call("POST", "/client/auth/reset-password", { email: freshEmail() }, { ip })).status).toBe(200);
      const limited = await call("POST", "/client/auth/reset-password", { email: freshEmail() }, { ip, lang: "ar" });
      expect(limited.status).toBe(429);
      expect(limited.body.message).toBe("محاولات كثيرة جدًا. يرجى الانتظار دقيقة ثم المحاولة مرة أخرى.");

      const target = freshPhone();
      for (let i = 0; i < 5; i++) await call("POST", "/client/auth/resend-code", { phone: target, purpose: "reset" });
      expect((await call("POST", "/client/auth/reset-password", { phone: target })).status).toBe(429);
    },
  );
});

describe("messenger", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("the development outbox is readable in development and test only; production answers 404", async () => {
    const user = await register();
    const production = await backendApp.request(
      `/dev/outbox?to=${encodeURIComponent(user.email)}`,
      {},
      { ...env, ENVIRONMENT: "production" },
    );
    expect(production.status).toBe(404);
    const development = await backendApp.request(
      `/dev/outbox?to=${encodeURIComponent(user.email)}`,
      {},
      { ...env, ENVIRONMENT: "development" },
    );
    expect(development.status).toBe(200);
    expect(((await development.json()) as { data: unknown[] }).data).toHaveLength(1);
    expect((await call("GET", "/dev/outbox")).status).toBe(422);
  });

  it("the outbox stores nothing in production, so a code never sits in a production database", async () => {
    const to = freshEmail();
    await new OutboxMessenger(env.DB, { ENVIRONMENT: "production" }).send({
      to,
      channel: "email",
      purpose: "verify",
      code: "123456",
      lang: "en",
    });
    expect(await readOutbox(env.DB, to)).toEqual([]);
    await new OutboxMessenger(env.DB, { ENVIRONMENT: "test" }).send({
      to,
      channel: "email",
      purpose: "verify",
      code: "123456",
      lang: "en",
    });
    expect(await readOutbox(env.DB, to)).toEqual([expect.objectContaining({ to, purpose: "verify", code: "123456" })]);
  });

  it("MESSENGER selects the implementation; http posts the message in the shopper's language to the provider", async () => {
    expect(messengerFor(env)).toBeInstanceOf(OutboxMessenger);
    expect(
      messengerFor({ ...env, MESSENGER: "http", MESSENGER_URL: "https://mail.example/send", MESSENGER_KEY: "k" }),
    ).toBeInstanceOf(HttpMessenger);
    expect(() => messengerFor({ ...env, MESSENGER: "http" })).toThrow(/MESSENGER_URL/);
    expect(() => messengerFor({ ...env, MESSENGER: "pigeon" })).toThrow(/Unknown MESSENGER/);

    const sent: Request[] = [];
    const provider = new HttpMessenger("https://mail.example/send", "secret-key", async (input, init) => {
      sent.push(new Request(input, init));
      return new Response("{}", { status: 202 });
    });
    await provider.send({ to: "sara@example.com", channel: "email", purpose: "reset", code: "654321", lang: "ar" });
    expect(sent).toHaveLength(1);
    expect(sent[0].method).toBe("POST");
    expect(sent[0].headers.get("authorization")).toBe("Bearer secret-key");
    const payload = (await sent[0].json()) as Record<string, string>;
    expect(payload).toMatchObject({
      to: "sara@example.com",
      channel: "email",
      purpose: "reset",
      lang: "ar",
      subject: "رمز إعادة تعيين كلمة المرور",
    });
    expect(payload.text).toContain("654321");

    const failing = new HttpMessenger(
      "https://mail.example/send",
      "k",
      async () => new Response("no", { status: 500 }),
    );
    await expect(
      failing.send({ to: "x@example.com", channel: "email", purpose: "verify", code: "1", lang: "en" }),
    ).rejects.toThrow(/500/);
  });

  it("a failing provider does not change the answer to a reset request", async () => {
    const user = await register();
    const res = await backendApp.request(
      "/client/auth/reset-password",
      {
        method: "POST",
        headers: { "content-type": "application/json", "cf-connecting-ip": freshIp() },
        body: JSON.stringify({ email: user.email }),
      },
      { ...env, MESSENGER: "http", MESSENGER_URL: "https://127.0.0.1:1/unreachable", MESSENGER_KEY: "k" },
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { message: string }).message).toBe(
      "If an account matches these details, we have sent it a code.",
    );
  });

  it("issuing and delivering a code happen after the answer, with any messenger, so neither can tell a known account from an unknown one", async () => {
    const user = await register();
    const deferred: Promise<unknown>[] = [];
    const remote = {
      ...env,
      MESSENGER: "http",
      MESSENGER_URL: "https://127.0.0.1:1/unreachable",
      MESSENGER_KEY: "k",
      defer: (task: Promise<unknown>) => void deferred.push(task),
    };
    const message = await requestCode(remote, { field: "email", value: user.email }, "reset", "en");
    expect(message).toBe("If an account matches these details, we have sent it a code.");
    expect(deferred).toHaveLength(1);
    await Promise.all(deferred);
    expect(await requestCode(remote, { field: "email", value: freshEmail() }, "reset", "en")).toBe(message);
    expect(deferred).toHaveLength(1);

    // The development outbox too: when the answer is given, no code has been issued yet.
    const local: Promise<unknown>[] = [];
    const other = await register();
    await requestCode(
      { ...env, defer: (task) => void local.push(task) },
      { field: "email", value: other.email },
      "reset",
      "en",
    );
    expect(local).toHaveLength(1);
    const issued = () =>
      env.DB.prepare("SELECT COUNT(*) AS n FROM otp_codes WHERE user_id = ? AND purpose = 'reset'")
        .bind(other.id)
        .first<{ n: number }>();
    expect((await issued())!.n).toBe(0);
    await Promise.all(local);
    expect((await issued())!.n).toBe(1);
    expect(await latestCode(other.email, "reset")).toMatch(/^\d{6}$/);
  });
});

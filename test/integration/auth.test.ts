import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { mintGuestId, sha256Hex } from "../../worker/backend/identity";
import { PBKDF2_ITERATIONS, parsePasswordHash } from "../../worker/backend/services/accounts/password";
import { withinLimits } from "../../worker/backend/services/shared/rate-limit";
import { clientIp } from "../../contract/server/network";
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
  STRONG_PASSWORD,
  SLOW_CRYPTO_TIMEOUT,
} from "../support/accounts";
import { createProduct } from "../support/commerce";

const registerBody = (email = freshEmail(), phone = freshPhone(), password = STRONG_PASSWORD) => ({
  name: "Sara Ahmed",
  email,
  phone,
  password,
  password_confirmation: password,
});

describe("registration", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("creates the account, answers the user with a working token, and sends a verification code", async () => {
    const body = registerBody();
    const res = await call("POST", "/client/auth/register", body);
    expect(res.status).toBe(201);
    expect(res.body.data.user).toEqual({
      id: expect.any(Number),
      name: "Sara Ahmed",
      email: body.email,
      phone: body.phone,
      verified: false,
    });
    expect(res.body.data.auth_data.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(res.body.data.auth_data.expires_at).getTime()).toBeGreaterThan(Date.now());
    expect(res.body.message).toBe("Your account has been created. We have sent you a verification code.");

    const profile = await call("GET", "/client/auth/profile", undefined, {
      token: res.body.data.auth_data.access_token,
    });
    expect(profile.status).toBe(200);
    expect(profile.body.data).toEqual(res.body.data.user);

    const sent = await outbox(body.email);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: body.email, purpose: "verify", code: expect.stringMatching(/^\d{6}$/) });
  });

  it("stores the password with PBKDF2 at no more than 100,000 iterations, the production Workers maximum", async () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
    const user = await register();
    const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?")
      .bind(user.id)
      .first<{ password_hash: string }>();
    const [scheme, iterations, salt, hash] = row!.password_hash.split("$");
    expect(scheme).toBe("pbkdf2-sha256");
    expect(Number(iterations)).toBeLessThanOrEqual(100_000);
    expect(Number(iterations)).toBe(PBKDF2_ITERATIONS);
    expect(atob(salt)).toHaveLength(16);
    expect(atob(hash)).toHaveLength(32);
    expect(row!.password_hash).not.toContain(user.password);
    expect(parsePasswordHash(row!.password_hash)).not.toBeNull();
  });

  it("refuses bad input with 422 field errors in the shopper's language", async () => {
    const empty = await call("POST", "/client/auth/register", {});
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.errors).sort()).toEqual(["email", "name", "password"].sort());
    expect(empty.body.errors.email).toEqual(["Email is required."]);

    const arabic = await call(
      "POST",
      "/client/auth/register",
      { ...registerBody(), email: "not-an-email" },
      { lang: "ar" },
    );
    expect(arabic.status).toBe(422);
    expect(arabic.body.message).toBe("البيانات المدخلة غير صالحة.");
    expect(arabic.body.errors.email).toEqual(["يرجى إدخال بريد إلكتروني صالح."]);

    const phone = await call("POST", "/client/auth/register", { ...registerBody(), phone: "0501234" });
    expect(phone.body.errors.phone).toEqual(["Please enter a valid phone number in international format."]);

    const mismatch = await call("POST", "/client/auth/register", {
      ...registerBody(),
      password_confirmation: "something else entirely",
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors.password_confirmation).toEqual(["Password confirmation does not match."]);

    const notJson = await call("POST", "/client/auth/register", undefined, {
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(422);
  });

  it("refuses passwords shorter than 8, longer than 128, or among the most common", async () => {
    const short = await call("POST", "/client/auth/register", registerBody(freshEmail(), freshPhone(), "abc123"));
    expect(short.status).toBe(422);
    expect(short.body.errors.password).toEqual(["The password must be at least 8 characters."]);
    const long = await call("POST", "/client/auth/register", registerBody(freshEmail(), freshPhone(), "x".repeat(129)));
    expect(long.body.errors.password).toEqual(["The password may not be longer than 128 characters."]);
    for (const common of ["password", "12345678", "qwerty123", "iloveyou", "Password1"]) {
      const res = await call("POST", "/client/auth/register", registerBody(freshEmail(), freshPhone(), common));
      expect(res.status, common).toBe(422);
      expect(res.body.errors.password, common).toEqual(["This password is too common. Choose a less predictable one."]);
    }
    const arabic = await call("POST", "/client/auth/register", registerBody(freshEmail(), freshPhone(), "password"), {
      lang: "ar",
    });
    expect(arabic.body.errors.password).toEqual(["كلمة المرور هذه شائعة جدًا. اختر كلمة مرور يصعب توقعها."]);
    // No composition rules: a long passphrase of lower-case words is fine, and 128 characters is allowed.
    expect(
      (await call("POST", "/client/auth/register", registerBody(freshEmail(), freshPhone(), "y".repeat(128)))).status,
    ).toBe(201);
  });

  it("details already in use get one message that does not say the account exists, no token, and the owner is told", async () => {
    const owner = await register();
    const byEmail = await call("POST", "/client/auth/register", registerBody(owner.email.toUpperCase()));
    expect(byEmail.status).toBe(422);
    expect(byEmail.body.message).toBe(
      "These details cannot be used for a new account. If you already have one, sign in or reset your password.",
    );
    expect(byEmail.body.errors).toEqual({ email: ["This value cannot be used."] });
    expect(byEmail.body.data).toBeUndefined();

    const byPhone = await call("POST", "/client/auth/register", registerBody(freshEmail(), owner.phone));
    expect(byPhone.body.message).toBe(byEmail.body.message);
    expect(byPhone.body.errors).toEqual({ phone: ["This value cannot be used."] });

    expect((await outbox(owner.email)).map((e) => e.purpose)).toContain("account-exists");
    expect((await outbox(owner.phone)).map((e) => e.purpose)).toContain("account-exists");
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?")
      .bind(owner.email)
      .first<{ n: number }>();
    expect(count!.n).toBe(1);
  });

  it(
    "is rate limited per address: the eleventh attempt in a minute answers 429 in the shopper's language",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      await awayFromMinuteEdge();
      const ip = freshIp();
      for (let i = 0; i < 10; i++) {
        expect(
          (await call("POST", "/client/auth/register", { ...registerBody(), password: "short" }, { ip })).status,
        ).toBe(422);
      }
      const limited = await call("POST", "/client/auth/register", registerBody(), { ip, lang: "ar" });
      expect(limited.status).toBe(429);
      expect(limited.body.message).toBe("محاولات كثيرة جدًا. يرجى الانتظار دقيقة ثم المحاولة مرة أخرى.");
      expect(limited.headers.get("retry-after")).toBe("60");
    },
  );
});

describe("login", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("signs in by email or by phone with a new token each time", async () => {
    const user = await register();
    const byEmail = await call("POST", "/client/auth/login", {
      email: user.email.toUpperCase(),
      password: user.password,
    });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data.user).toMatchObject({
      id: user.id,
      email: user.email,
      phone: user.phone,
      verified: false,
    });
    const byPhone = await call("POST", "/client/auth/login", {
      phone: user.phone.replace("+966", "+966 "),
      password: user.password,
    });
    expect(byPhone.status).toBe(200);
    expect(byPhone.body.data.user.id).toBe(user.id);
    const tokens = new Set([
      user.token,
      byEmail.body.data.auth_data.access_token,
      byPhone.body.data.auth_data.access_token,
    ]);
    expect(tokens.size).toBe(3);
    for (const token of tokens)
      expect((await call("GET", "/client/auth/profile", undefined, { token })).status).toBe(200);
  });

  it(
    "an unknown account and a wrong password get the same status and body, in about the same time",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      // Two accounts in turn, so neither reaches the failures after which answers slow down (L3).
      const users = [await register(), await register()];
      let turn = 0;
      const wrong = () =>
        call("POST", "/client/auth/login", { email: users[turn++ % 2].email, password: "not the password at all" });
      const unknown = () =>
        call("POST", "/client/auth/login", { email: freshEmail(), password: "not the password at all" });
      const a = await wrong();
      const b = await unknown();
      expect(a.status).toBe(422);
      expect(b.status).toBe(a.status);
      expect(b.body).toEqual(a.body);
      expect(a.body).toEqual({
        message: "These credentials do not match our records.",
        errors: { email: ["These credentials do not match our records."] },
      });

      // Interleaved, so a burst of load on the machine slows both kinds alike; medians drop outliers.
      const wrongTimes: number[] = [];
      const unknownTimes: number[] = [];
      const time = async (f: () => Promise<unknown>, into: number[]) => {
        const start = performance.now();
        await f();
        into.push(performance.now() - start);
      };
      for (let i = 0; i < 7; i++) {
        await time(wrong, wrongTimes);
        await time(unknown, unknownTimes);
      }
      const median = (times: number[]) => times.sort((x, y) => x - y)[Math.floor(times.length / 2)];
      const tWrong = median(wrongTimes);
      const tUnknown = median(unknownTimes);
      // Both run one PBKDF2 at 100,000 iterations; without the dummy check the unknown path would be
      // a single indexed SELECT, many times faster.
      expect(tUnknown).toBeGreaterThan(tWrong * 0.5);
      expect(tUnknown).toBeLessThan(tWrong * 2);
    },
  );

  it("refuses a missing identifier, and answers Arabic in Arabic", async () => {
    const none = await call("POST", "/client/auth/login", { password: "whatever123" });
    expect(none.status).toBe(422);
    expect(none.body.errors.email).toEqual(["Email or phone is required."]);
    const ar = await call(
      "POST",
      "/client/auth/login",
      { phone: freshPhone(), password: "whatever123" },
      { lang: "ar" },
    );
    expect(ar.body).toEqual({
      message: "بيانات الدخول هذه لا تطابق سجلاتنا.",
      errors: { phone: ["بيانات الدخول هذه لا تطابق سجلاتنا."] },
    });
  });

  it("is rate limited per address, and per account from one address", { timeout: COUNTING_TIMEOUT }, async () => {
    const user = await register();
    await awayFromMinuteEdge();
    const ip = freshIp();
    for (let i = 0; i < 10; i++)
      await call("POST", "/client/auth/login", { email: freshEmail(), password: "guess-guess" }, { ip });
    const limited = await call("POST", "/client/auth/login", { email: user.email, password: user.password }, { ip });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe("Too many attempts. Please wait a minute and try again.");
    // The per-account count is per network: the owner elsewhere is not affected (L3).
    expect((await call("POST", "/client/auth/login", { email: user.email, password: user.password })).status).toBe(200);
  });

  it("brings a known guest's cart into the user's cart", async () => {
    const user = await register();
    const product = await createProduct({ stock: 10, maxPerOrder: 5 });
    const guestId = await mintGuestId(env);
    const added = await call(
      "POST",
      "/cart/add-product",
      { product_id: product.id, quantity: 2 },
      { headers: { "guest-id": guestId } },
    );
    expect(added.status).toBe(200);
    const login = await call(
      "POST",
      "/client/auth/login",
      { email: user.email, password: user.password },
      { headers: { "guest-id": guestId } },
    );
    expect(login.status).toBe(200);
    const cart = await call("GET", "/cart", undefined, { token: login.body.data.auth_data.access_token });
    expect(cart.body.data.products).toEqual([expect.objectContaining({ product_id: product.id, quantity: 2 })]);
  });

  it("registering as a known guest brings the guest's cart along", async () => {
    const product = await createProduct({ stock: 10, maxPerOrder: 5 });
    const guestId = await mintGuestId(env);
    await call(
      "POST",
      "/cart/add-product",
      { product_id: product.id, quantity: 1 },
      { headers: { "guest-id": guestId } },
    );
    const user = await register({}, { headers: { "guest-id": guestId } });
    const cart = await call("GET", "/cart", undefined, { token: user.token });
    expect(cart.body.data.products).toEqual([expect.objectContaining({ product_id: product.id, quantity: 1 })]);
  });
});

describe("bearer tokens", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("are stored only as SHA-256 hashes", async () => {
    const user = await register();
    const rows = await env.DB.prepare("SELECT * FROM auth_tokens WHERE user_id = ?").bind(user.id).all();
    expect(rows.results).toHaveLength(1);
    expect(JSON.stringify(rows.results)).not.toContain(user.token);
    expect(rows.results[0].token_hash).toBe(await sha256Hex(user.token));
  });

  it("logout revokes the token, and a revoked, unknown or missing token is 401", async () => {
    const user = await register();
    const out = await call("POST", "/client/auth/logout", undefined, { token: user.token });
    expect(out.status).toBe(200);
    expect(out.body.message).toBe("You have been signed out.");
    expect((await call("GET", "/client/auth/profile", undefined, { token: user.token })).status).toBe(401);
    expect((await call("POST", "/client/auth/logout", undefined, { token: user.token })).status).toBe(401);
    expect((await call("GET", "/client/auth/profile")).status).toBe(401);
    expect((await call("GET", "/client/auth/profile", undefined, { token: "A".repeat(43) })).status).toBe(401);
  });
});

describe("profile", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("saves the name with the token alone", async () => {
    const user = await register();
    const saved = await call(
      "POST",
      "/client/auth/profile",
      { name: "  Sara Al-Harbi ", email: user.email, phone: user.phone },
      { token: user.token },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("Your profile has been saved.");
    expect(saved.body.data).toEqual({
      id: user.id,
      name: "Sara Al-Harbi",
      email: user.email,
      phone: user.phone,
      verified: false,
    });
    const read = await call("GET", "/client/auth/profile", undefined, { token: user.token });
    expect(read.body.data).toEqual(saved.body.data);
  });

  it("saves a new phone and email with the current password; the new email waits for its code, then replaces the old one", async () => {
    const user = await register();
    const email = freshEmail();
    const phone = freshPhone();
    const saved = await call(
      "POST",
      "/client/auth/profile",
      { name: "Sara", email, phone, current_password: user.password },
      { token: user.token },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({
      id: user.id,
      name: "Sara",
      email: user.email,
      phone,
      verified: false,
      pending_email: email,
    });
    expect(saved.body.message).toBe(
      "Your profile has been saved. We have sent a code to your new email: it replaces the current one once you enter the code.",
    );
    const code = await latestCode(email, "verify");
    const verified = await call("POST", "/client/auth/code-password-verify", { email, code, purpose: "verify" });
    expect(verified.status).toBe(200);
    expect(verified.body.data).toEqual({ verified: true });
    const read = await call("GET", "/client/auth/profile", undefined, { token: user.token });
    expect(read.body.data).toEqual({ id: user.id, name: "Sara", email, phone, verified: true });
    expect((await call("POST", "/client/auth/login", { email, password: user.password })).status).toBe(200);
    expect((await call("POST", "/client/auth/login", { phone, password: user.password })).status).toBe(200);
  });

  it("refuses another account's email or phone and bad input with 422, and anyone signed out with 401", async () => {
    const user = await register();
    const other = await register();
    const taken = await call(
      "POST",
      "/client/auth/profile",
      { name: "Sara", email: other.email, phone: other.phone, current_password: user.password },
      { token: user.token },
    );
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ email: ["This value cannot be used."], phone: ["This value cannot be used."] });
    const bad = await call("POST", "/client/auth/profile", { name: "", email: "x" }, { token: user.token });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["email", "name"]);
    expect((await call("POST", "/client/auth/profile", { name: "Sara", email: freshEmail() })).status).toBe(401);
  });
});

describe("passwords when signed in", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("check-password answers whether the password is the account's", async () => {
    const user = await register();
    expect(
      (await call("POST", "/client/auth/check-password", { password: user.password }, { token: user.token })).body.data,
    ).toEqual({ valid: true });
    expect(
      (await call("POST", "/client/auth/check-password", { password: "something else" }, { token: user.token })).body
        .data,
    ).toEqual({ valid: false });
    expect((await call("POST", "/client/auth/check-password", {}, { token: user.token })).status).toBe(422);
    expect((await call("POST", "/client/auth/check-password", { password: user.password })).status).toBe(401);
  });

  it("change-password needs the current password, keeps this session and ends the others", async () => {
    const user = await register();
    const other = (await call("POST", "/client/auth/login", { email: user.email, password: user.password })).body.data
      .auth_data.access_token;
    const next = "a brand new passphrase";
    const wrong = await call(
      "POST",
      "/client/auth/change-password",
      { current_password: "nope nope", password: next, password_confirmation: next },
      { token: user.token },
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ current_password: ["The current password is incorrect."] });
    const common = await call(
      "POST",
      "/client/auth/change-password",
      { current_password: user.password, password: "password1", password_confirmation: "password1" },
      { token: user.token },
    );
    expect(common.body.errors.password).toBeDefined();

    const changed = await call(
      "POST",
      "/client/auth/change-password",
      { current_password: user.password, password: next, password_confirmation: next },
      { token: user.token },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.message).toBe("Your password has been changed.");
    expect((await call("GET", "/client/auth/profile", undefined, { token: user.token })).status).toBe(200);
    expect((await call("GET", "/client/auth/profile", undefined, { token: other })).status).toBe(401);
    expect((await call("POST", "/client/auth/login", { email: user.email, password: user.password })).status).toBe(422);
    expect((await call("POST", "/client/auth/login", { email: user.email, password: next })).status).toBe(200);
  });
});

describe("social sign-in", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("lists no platform by default", async () => {
    const res = await call("GET", "/client/auth/social/platforms");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});

describe("rate limits", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("count in D1 where no limiter binding is bound, with the same limits", { timeout: COUNTING_TIMEOUT }, async () => {
    await awayFromMinuteEdge();
    const key = `fallback:${freshEmail()}`;
    const unbound = { DB: env.DB };
    for (let i = 0; i < 5; i++) expect(await withinLimits(unbound, "OTP_LIMITER", [key])).toBe(true);
    expect(await withinLimits(unbound, "OTP_LIMITER", [key])).toBe(false);
    expect(await withinLimits(unbound, "OTP_LIMITER", [`${key}:other`])).toBe(true);
  });

  it("key on cf-connecting-ip, then the first x-forwarded-for address, else unknown", () => {
    const headers = (h: Record<string, string>) => (name: string) => h[name];
    expect(clientIp(headers({ "cf-connecting-ip": "203.0.113.7", "x-forwarded-for": "198.51.100.1" }))).toBe(
      "203.0.113.7",
    );
    expect(clientIp(headers({ "x-forwarded-for": "198.51.100.1, 10.0.0.1" }))).toBe("198.51.100.1");
    expect(clientIp(headers({}))).toBe("unknown");
  });
});

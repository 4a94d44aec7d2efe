import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { apiApp } from "../../worker/api";
import { sessionKey, SESSION_RECHECK_SECONDS, SESSION_TTL_SECONDS, type StoredSession } from "../../worker/api/session";
import { GUEST_TTL_SECONDS, guestKey } from "../../worker/backend/identity";
import { call, latestCode, register, SLOW_CRYPTO_TIMEOUT } from "../support/accounts";

const ORIGIN = "https://shop.test";

function api(
  method: string,
  path: string,
  init: { body?: unknown; cookie?: string; headers?: Record<string, string>; origin?: string } = {},
) {
  const headers: Record<string, string> = { accept: "application/json", ...init.headers };
  if (init.body !== undefined) headers["content-type"] ??= "application/json";
  if (init.cookie) headers.cookie = init.cookie;
  return SELF.fetch(`${init.origin ?? ORIGIN}/api${path}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
}

/** The `name=value` pair a Set-Cookie header sets, to send back as a Cookie header. */
const cookiePair = (res: Response) => res.headers.get("set-cookie")?.split(";")[0] ?? "";

async function signIn() {
  const user = await register();
  const res = await api("POST", "/add-user", {
    body: { token: user.token, user: { id: user.id, name: "Sara Ahmed" } },
    headers: { origin: ORIGIN },
  });
  expect(res.status).toBe(200);
  return { user, res, cookie: cookiePair(res) };
}

describe("own-server session", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("get-user without a session answers 401 User not authenticated", async () => {
    const res = await api("GET", "/get-user");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: "User not authenticated" });
    const forged = await api("GET", "/get-user", { cookie: `__Host-sid=${"x".repeat(43)}` });
    expect(forged.status).toBe(401);
  });

  it("add-user checks the token with the backend, stores the backend's user and sets the __Host- cookie", async () => {
    const user = await register();
    const res = await api("POST", "/add-user", {
      body: { token: user.token, user: { id: 999_999, name: "Someone Else" } },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: { id: user.id, name: "Sara Ahmed", email: user.email, phone: user.phone, verified: false },
    });

    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^__Host-sid=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("Secure");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).toContain(`Max-Age=${SESSION_TTL_SECONDS}`);
    expect(setCookie).not.toContain("Domain");

    const id = cookiePair(res).split("=")[1];
    const stored = await env.KV.get<{ token: string; user: { id: number } }>(sessionKey(id), "json");
    expect(stored).toEqual({
      token: user.token,
      user: expect.objectContaining({ id: user.id }),
      checked_at: expect.any(Number),
      expires_at: expect.any(Number),
    });

    const me = await api("GET", "/get-user", { cookie: cookiePair(res) });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { id: number } }).data.id).toBe(user.id);
  });

  it("add-user refuses an invalid or revoked token and stores nothing", async () => {
    const unknown = await api("POST", "/add-user", { body: { token: "A".repeat(43), user: { id: 1 } } });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ message: "User not authenticated" });
    expect(unknown.headers.get("set-cookie")).toBeNull();

    const user = await register();
    await call("POST", "/client/auth/logout", undefined, { token: user.token });
    const revoked = await api("POST", "/add-user", { body: { token: user.token, user: { id: user.id } } });
    expect(revoked.status).toBe(401);

    const malformed = await api("POST", "/add-user", { body: { token: "short", user: "me" } });
    expect(malformed.status).toBe(422);
    expect(Object.keys(((await malformed.json()) as { errors: object }).errors).sort()).toEqual(["token", "user"]);
    // Malformed JSON is a bad input like any other: the edge's one validator answers 422.
    const notJson = await api("POST", "/add-user", { body: "{not json" });
    expect(notJson.status).toBe(422);
    const refusal = (await notJson.json()) as { errors: Record<string, string[]> };
    expect(refusal.errors.body).toEqual(["The request body must be a JSON object."]);
  });

  it("on plain http://localhost the cookie is sid without Secure", async () => {
    const user = await register();
    const res = await api("POST", "/add-user", {
      body: { token: user.token, user: { id: user.id } },
      origin: "http://localhost:5173",
    });
    expect(res.status).toBe(200);
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^sid=/);
    expect(setCookie).not.toContain("Secure");
    expect(setCookie).toContain("HttpOnly");
  });

  it("signing in again replaces the browser's session id instead of reusing it", async () => {
    const first = await signIn();
    const again = await api("POST", "/add-user", {
      body: { token: first.user.token, user: { id: first.user.id } },
      cookie: first.cookie,
    });
    expect(cookiePair(again)).not.toBe(first.cookie);
    expect((await api("GET", "/get-user", { cookie: first.cookie })).status).toBe(401);
    expect((await api("GET", "/get-user", { cookie: cookiePair(again) })).status).toBe(200);
  });

  it("logout deletes the KV session and the cookie, and revokes the backend token", async () => {
    const { user, cookie } = await signIn();
    const id = cookie.split("=")[1];
    const res = await api("POST", "/logout", { cookie, headers: { origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/^__Host-sid=;.*Max-Age=0/);
    expect(await env.KV.get(sessionKey(id))).toBeNull();
    expect((await api("GET", "/get-user", { cookie })).status).toBe(401);
    expect((await call("GET", "/client/auth/profile", undefined, { token: user.token })).status).toBe(401);
    // Without a session it answers the same.
    expect((await api("POST", "/logout", { headers: { origin: ORIGIN } })).status).toBe(200);
  });

  it("refuses state changes from another origin (csrf)", async () => {
    const { cookie } = await signIn();
    const evil = { origin: "https://evil.example" };
    const json = await api("POST", "/logout", { cookie, headers: evil, body: {} });
    expect(json.status).toBe(403);
    const form = await api("POST", "/logout", {
      cookie,
      headers: { ...evil, "content-type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    expect(form.status).toBe(403);
    const crossSite = await api("POST", "/logout", { cookie, headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    // A bodiless post with no Origin at all is treated as a form post and refused too.
    expect((await api("POST", "/logout", { cookie })).status).toBe(403);
    // The session survived all three.
    expect((await api("GET", "/get-user", { cookie })).status).toBe(200);
    expect(
      (await api("POST", "/logout", { cookie, headers: { origin: ORIGIN, "sec-fetch-site": "same-origin" } })).status,
    ).toBe(200);
  });

  it("bodies over the size limit answer 413", async () => {
    const res = await api("POST", "/add-user", {
      body: { token: "A".repeat(43), user: { id: 1, padding: "x".repeat(20_000) } },
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: "Payload too large" });
  });
});

/** Makes the stored session look last confirmed by the backend `seconds` ago. */
async function ageSession(cookie: string, seconds: number): Promise<StoredSession> {
  const key = sessionKey(cookie.split("=")[1]);
  const stored = (await env.KV.get<StoredSession>(key, "json"))!;
  await env.KV.put(key, JSON.stringify({ ...stored, checked_at: (stored.checked_at ?? Date.now()) - seconds * 1000 }));
  return stored;
}

describe("own-server session after the backend token is revoked (L6)", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("revoked token: after a logout elsewhere the own-server session ends within the re-check interval", async () => {
    const { user, cookie } = await signIn();
    // Signed out on another device, or the token revoked any other way.
    expect((await call("POST", "/client/auth/logout", undefined, { token: user.token })).status).toBe(200);
    await ageSession(cookie, SESSION_RECHECK_SECONDS + 1);
    const me = await api("GET", "/get-user", { cookie });
    expect(me.status).toBe(401);
    expect(await me.json()).toEqual({ message: "User not authenticated" });
    expect(await env.KV.get(sessionKey(cookie.split("=")[1]))).toBeNull();
    // "Within the interval" is at most a minute.
    expect(SESSION_RECHECK_SECONDS).toBeLessThanOrEqual(60);
  });

  it("revoked token: a password reset ends the own-server session too", async () => {
    const { user, cookie } = await signIn();
    await call("POST", "/client/auth/reset-password", { email: user.email });
    const checked = await call("POST", "/client/auth/code-password-verify", {
      email: user.email,
      code: await latestCode(user.email, "reset"),
      purpose: "reset",
    });
    const next = "a passphrase after the reset";
    const reset = await call("POST", "/client/auth/update-password", {
      reset_token: checked.body.data.reset_token,
      password: next,
      password_confirmation: next,
    });
    expect(reset.status).toBe(200);
    await ageSession(cookie, SESSION_RECHECK_SECONDS + 1);
    expect((await api("GET", "/get-user", { cookie })).status).toBe(401);
  });

  it("revoked token: a password change on another device ends this device's own-server session", async () => {
    const { user, cookie } = await signIn();
    const other = (await call("POST", "/client/auth/login", { email: user.email, password: user.password })).body.data
      .auth_data.access_token;
    const next = "another brand new passphrase";
    const changed = await call(
      "POST",
      "/client/auth/change-password",
      { current_password: user.password, password: next, password_confirmation: next },
      { token: other },
    );
    expect(changed.status).toBe(200);
    await ageSession(cookie, SESSION_RECHECK_SECONDS + 1);
    expect((await api("GET", "/get-user", { cookie })).status).toBe(401);
  });

  it("within the interval the session is answered from KV alone (SSR stays fast); after it, a live token is re-checked and the user refreshed", async () => {
    const { user, cookie } = await signIn();
    const key = sessionKey(cookie.split("=")[1]);
    const before = (await env.KV.get<StoredSession>(key, "json"))!;
    expect((await api("GET", "/get-user", { cookie })).status).toBe(200);
    expect((await env.KV.get<StoredSession>(key, "json"))!.checked_at).toBe(before.checked_at);

    await call(
      "POST",
      "/client/auth/profile",
      { name: "Sara Renamed", email: user.email, phone: user.phone },
      { token: user.token },
    );
    await ageSession(cookie, SESSION_RECHECK_SECONDS + 1);
    const me = await api("GET", "/get-user", { cookie });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { name: string } }).data.name).toBe("Sara Renamed");
    const after = (await env.KV.get<StoredSession>(key, "json"))!;
    expect(after.checked_at).toBeGreaterThanOrEqual(before.checked_at!);
    // The rewrite keeps the session's original expiry.
    expect(after.expires_at).toBe(before.expires_at);
  });
});

describe("guest ids", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("generate-guest-id answers a random UUID recorded in KV with a 30-day expiry", async () => {
    const res = await api("GET", "/cart/generate-guest-id");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { guestId } = (await res.json()) as { guestId: string };
    expect(guestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const listed = await env.KV.list({ prefix: guestKey(guestId) });
    expect(listed.keys).toHaveLength(1);
    const expiresIn = listed.keys[0].expiration! - Date.now() / 1000;
    expect(expiresIn).toBeGreaterThan(GUEST_TTL_SECONDS - 120);
    expect(expiresIn).toBeLessThanOrEqual(GUEST_TTL_SECONDS + 1);
    const other = (await (await api("GET", "/cart/generate-guest-id")).json()) as { guestId: string };
    expect(other.guestId).not.toBe(guestId);
    // The backend accepts it as a cart owner.
    expect((await call("GET", "/cart", undefined, { headers: { "guest-id": guestId } })).status).toBe(200);
  });

  it("a KV failure is a clean 503, not a crash", async () => {
    const broken = {
      ...env,
      KV: { ...env.KV, put: () => Promise.reject(new Error("KV unavailable")) } as unknown as KVNamespace,
    };
    const res = await apiApp.request("/cart/generate-guest-id", {}, broken);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ message: "Guest ids are unavailable right now. Please try again." });
    // The backend that mints the ids answers in the visitor's language.
    const arabic = await apiApp.request("/cart/generate-guest-id", { headers: { "content-language": "ar" } }, broken);
    expect(arabic.status).toBe(503);
    expect(await arabic.json()).toEqual({ message: "معرّفات الزوار غير متاحة الآن. يرجى المحاولة مرة أخرى." });
  });
});

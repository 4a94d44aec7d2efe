import { describe, expect, it } from "vitest";
import { builtWorker } from "../support/http.ts";

const base = builtWorker().url;

/** The sign-up a journey makes against the real built worker: backend, outbox, own server, cookie. */
describe("accounts on the built worker", () => {
  it("register → code from the outbox → verified → session cookie → get-user → logout", async () => {
    const email = `http-${Date.now().toString(36)}@example.com`;
    const password = "built worker passphrase";
    const json = { "content-type": "application/json", origin: base };
    const registered = await fetch(`${base}/backend/client/auth/register`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ name: "Sara", email, phone: "", password, password_confirmation: password }),
    });
    expect(registered.status).toBe(201);
    const { data } = (await registered.json()) as {
      data: { user: { id: number }; auth_data: { access_token: string } };
    };

    const outbox = (await (await fetch(`${base}/backend/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as {
      data: { code: string }[];
    };
    const verified = await fetch(`${base}/backend/client/auth/code-password-verify`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email, code: outbox.data[0].code, purpose: "verify" }),
    });
    expect(verified.status).toBe(200);

    const added = await fetch(`${base}/api/add-user`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ token: data.auth_data.access_token, user: data.user }),
    });
    expect(added.status).toBe(200);
    const cookie = added.headers.get("set-cookie")!;
    // The built worker runs on http://127.0.0.1 here, where __Host- (which needs Secure) cannot be used.
    expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43}; .*HttpOnly/);
    const pair = cookie.split(";")[0];

    // A signed-in visitor's pages are never stored by any cache; an anonymous visitor's may revalidate.
    const profile = await fetch(`${base}/en/profile`, { headers: { cookie: pair } });
    expect(profile.headers.get("cache-control")).toBe("private, no-store");
    expect((await fetch(`${base}/en/profile`)).headers.get("cache-control")).toBe("no-cache");
    const me = await fetch(`${base}/api/get-user`, { headers: { cookie: pair } });
    expect(((await me.json()) as { data: { id: number; verified: boolean } }).data).toMatchObject({
      id: data.user.id,
      verified: true,
    });

    const evil = await fetch(`${base}/api/logout`, {
      method: "POST",
      headers: { cookie: pair, origin: "https://evil.example", "content-type": "application/json" },
    });
    expect(evil.status).toBe(403);
    const out = await fetch(`${base}/api/logout`, { method: "POST", headers: { cookie: pair, origin: base } });
    expect(out.status).toBe(200);
    expect((await fetch(`${base}/api/get-user`, { headers: { cookie: pair } })).status).toBe(401);
  });
});

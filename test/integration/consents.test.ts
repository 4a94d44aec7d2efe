import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CONSENTS_PATH } from "../../contract/consents";
import { hasConsent, readConsents, consentStatement } from "../../worker/backend/services/consents/consents";
import { call, register, SLOW_CRYPTO_TIMEOUT } from "../support/accounts";
import ar from "../../worker/backend/messages/ar.json";
import en from "../../worker/backend/messages/en.json";

/**
 * Consent to messages beyond an order's news (contract/consents.ts): each decision is kept with
 * the wording shown, its language, where and when; withdrawing is one call; the current answer is
 * the newest decision; a guest's is kept under the hash of their address, and no one's are shared.
 */
describe("consents", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("starts with no consent, records a yes with its wording and a withdrawal after it", async () => {
    const user = await register();
    const before = await call("GET", CONSENTS_PATH, undefined, { token: user.token });
    expect(before.body.data).toEqual({ current: { marketing: false, cart_reminders: false }, history: [] });

    const given = await call(
      "POST",
      CONSENTS_PATH,
      { purpose: "marketing", granted: true },
      { token: user.token, lang: "ar" },
    );
    expect(given.status).toBe(200);
    expect(given.body.data.current).toEqual({ marketing: true, cart_reminders: false });
    expect(given.body.data.history[0]).toMatchObject({
      purpose: "marketing",
      granted: true,
      wording: ar.consents.marketing.v1,
      wording_version: "v1",
      lang: "ar",
      source: "profile",
    });
    expect(given.body.data.history[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    const withdrawn = await call(
      "POST",
      CONSENTS_PATH,
      { purpose: "marketing", granted: false },
      { token: user.token },
    );
    expect(withdrawn.body.data.current.marketing).toBe(false);
    expect(withdrawn.body.data.history.map((r: { granted: boolean }) => r.granted)).toEqual([false, true]);
    expect(withdrawn.body.data.history[0].wording).toBe(en.consents.marketing.v1);
    expect(await hasConsent(env.DB, { userId: user.id }, "marketing")).toBe(false);
  });

  it("keeps each account's decisions to itself", async () => {
    const a = await register();
    const b = await register();
    await call("POST", CONSENTS_PATH, { purpose: "cart_reminders", granted: true }, { token: a.token });
    expect(await hasConsent(env.DB, { userId: a.id }, "cart_reminders")).toBe(true);
    expect(await hasConsent(env.DB, { userId: b.id }, "cart_reminders")).toBe(false);
    const other = await call("GET", CONSENTS_PATH, undefined, { token: b.token });
    expect(other.body.data.history).toEqual([]);
  });

  it("needs a signed-in shopper and a known purpose with a yes or no", async () => {
    expect((await call("GET", CONSENTS_PATH)).status).toBe(401);
    expect((await call("POST", CONSENTS_PATH, { purpose: "marketing", granted: true })).status).toBe(401);
    const user = await register();
    const bad = await call("POST", CONSENTS_PATH, { purpose: "everything", granted: "yes" }, { token: user.token });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["granted", "purpose"]);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM consents WHERE user_id = ?")
      .bind(user.id)
      .first<number>("n");
    expect(rows).toBe(0);
  });

  it("keeps a guest's decision under the hash of their address", async () => {
    const hash = "a".repeat(64);
    await consentStatement(
      env.DB,
      { recipientHash: hash },
      { purpose: "cart_reminders", granted: true, lang: "en", source: "checkout" },
    ).run();
    const state = await readConsents(env.DB, { recipientHash: hash });
    expect(state.current.cart_reminders).toBe(true);
    expect(state.history[0]).toMatchObject({ source: "checkout", wording: en.consents.cart_reminders.v1 });
  });
});

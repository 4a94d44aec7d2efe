import { describe, expect, it } from "vitest";
import { COMPARISON_PATH, MAX_COMPARED } from "../../contract/comparison";
import { call, register, SLOW_CRYPTO_TIMEOUT } from "../support/accounts";

/**
 * A signed-in shopper's comparison pick, kept with the account (contract/comparison.ts): read and
 * replaced whole, checked before it is kept, one per account, never another's.
 */
describe("the comparison pick kept with the account", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("is empty at first, then holds what was saved; an empty pick clears it", async () => {
    const user = await register();
    const opts = { token: user.token };
    expect((await call("GET", COMPARISON_PATH, undefined, opts)).body.data).toEqual({ group: "", slugs: [] });
    const pick = { group: "laptops", slugs: ["dell-xps-13", "macbook-air-13-m3", "hp-spectre-x360-14"] };
    const saved = await call("PUT", COMPARISON_PATH, pick, opts);
    expect(saved.status).toBe(200);
    expect((await call("GET", COMPARISON_PATH, undefined, opts)).body.data).toEqual(pick);
    await call("PUT", COMPARISON_PATH, { group: "tvs", slugs: ["lg-oled-c3-65"] }, opts);
    expect((await call("GET", COMPARISON_PATH, undefined, opts)).body.data).toEqual({
      group: "tvs",
      slugs: ["lg-oled-c3-65"],
    });
    await call("PUT", COMPARISON_PATH, { group: "", slugs: [] }, opts);
    expect((await call("GET", COMPARISON_PATH, undefined, opts)).body.data).toEqual({ group: "", slugs: [] });
  });

  it("is each account's own, and needs one", async () => {
    const [a, b] = await Promise.all([register(), register()]);
    await call("PUT", COMPARISON_PATH, { group: "phones", slugs: ["iphone-15"] }, { token: a.token });
    expect((await call("GET", COMPARISON_PATH, undefined, { token: b.token })).body.data.slugs).toEqual([]);
    expect((await call("GET", COMPARISON_PATH)).status).toBe(401);
    expect((await call("PUT", COMPARISON_PATH, { group: "phones", slugs: [] })).status).toBe(401);
  });

  it(`refuses more than ${MAX_COMPARED} products, a repeat or a bad slug, in the caller's language, keeping the old pick`, async () => {
    const user = await register();
    const opts = { token: user.token };
    await call("PUT", COMPARISON_PATH, { group: "phones", slugs: ["iphone-15"] }, opts);
    for (const bad of [
      { group: "phones", slugs: ["a", "b", "c", "d", "e"] },
      { group: "phones", slugs: ["a", "a"] },
      { group: "phones", slugs: ["<b>"] },
      { group: "Phones!", slugs: ["a"] },
    ]) {
      const res = await call("PUT", COMPARISON_PATH, bad, { ...opts, lang: "ar" });
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(Object.values(res.body.errors ?? {}).flat()[0]).toMatch(/[\u0600-\u06ff]/);
    }
    expect((await call("GET", COMPARISON_PATH, undefined, opts)).body.data.slugs).toEqual(["iphone-15"]);
  });
});

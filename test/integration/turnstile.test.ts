// The Turnstile adapter and its offline stand-in, held to Cloudflare's documented Siteverify
// requests and answers (developers.cloudflare.com/turnstile/get-started/server-side-validation,
// .../troubleshooting/testing): the stand-in answers as Siteverify does, so the adapter's own
// requests are what every test of the shared-network policy runs.
import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { challengeService } from "../../worker/backend/services/challenge";
import {
  readAnswer,
  SITEVERIFY_ERRORS,
  TURNSTILE_API,
  turnstileVerifier,
} from "../../worker/backend/services/challenge/turnstile";
import {
  DUMMY_TOKEN,
  dummyToken,
  STAND_IN_SCRIPT_PATH,
  TEST_SECRET_KEYS,
  TEST_SITE_KEYS,
  TURNSTILE_STAND_IN_BASE,
  turnstileStandIn,
} from "../../worker/backend/services/challenge/turnstile-stand-in";
import { TURNSTILE_SCRIPT } from "../../contract/challenge";
import type { Env } from "../../worker/env";

/** Cloudflare's documented example of a passed token's answer. */
const DOCUMENTED_SUCCESS = {
  success: true,
  challenge_ts: "2022-02-28T15:14:30.096Z",
  hostname: "example.com",
  "error-codes": [],
  action: "login",
  cdata: "sessionid-123456789",
  metadata: { ephemeral_id: "x:9f78e0ed210960d7693b167e" },
};
/** Cloudflare's documented example of a refused token's answer. */
const DOCUMENTED_FAILURE = { success: false, "error-codes": ["invalid-input-response"] };

const standIn = () => turnstileStandIn(env.KV);
const siteverify = (body: BodyInit, type?: string) =>
  standIn()(`${TURNSTILE_STAND_IN_BASE}/siteverify`, {
    method: "POST",
    headers: type ? { "content-type": type } : {},
    body,
  });
const verifier = (secretKey: string = TEST_SECRET_KEYS.passes) =>
  turnstileVerifier({ secretKey, apiBase: TURNSTILE_STAND_IN_BASE, fetcher: standIn() });

describe("the Turnstile adapter", () => {
  it("sends Siteverify's documented request: a JSON POST of secret, response, remoteip and idempotency_key", async () => {
    const seen: { url: string; method: string; type: string | null; body: unknown }[] = [];
    const fetcher: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      seen.push({
        url: request.url,
        method: request.method,
        type: request.headers.get("content-type"),
        body: await request.json(),
      });
      return Response.json(DOCUMENTED_SUCCESS);
    };
    const answer = await turnstileVerifier({ secretKey: "0x4AAA-secret", fetcher }).verify("a-token", {
      remoteip: "203.0.113.7",
      idempotencyKey: "6a5e3f0c-0c1d-4f4e-9a7e-1a2b3c4d5e6f",
    });
    expect(seen).toEqual([
      {
        url: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
        method: "POST",
        type: "application/json",
        body: {
          secret: "0x4AAA-secret",
          response: "a-token",
          remoteip: "203.0.113.7",
          idempotency_key: "6a5e3f0c-0c1d-4f4e-9a7e-1a2b3c4d5e6f",
        },
      },
    ]);
    expect(TURNSTILE_API).toBe("https://challenges.cloudflare.com/turnstile/v0");
    expect(answer).toEqual({
      success: true,
      "error-codes": [],
      challenge_ts: "2022-02-28T15:14:30.096Z",
      hostname: "example.com",
      action: "login",
      cdata: "sessionid-123456789",
    });
  });

  it("reads the documented failed answer, and never throws: a dead network or a strange answer is internal-error", async () => {
    expect(readAnswer(DOCUMENTED_FAILURE)).toEqual(DOCUMENTED_FAILURE);
    const answering = (res: () => Promise<Response>) => turnstileVerifier({ secretKey: "s", fetcher: res }).verify("t");
    expect(await answering(async () => Response.json(DOCUMENTED_FAILURE))).toEqual(DOCUMENTED_FAILURE);
    expect(await answering(() => Promise.reject(new TypeError("network down")))).toEqual({
      success: false,
      "error-codes": ["internal-error"],
    });
    expect(await answering(async () => new Response("<html>bad gateway</html>", { status: 502 }))).toEqual({
      success: false,
      "error-codes": ["internal-error"],
    });
    // Nothing to send, or more than the 2048 characters a token can be: refused without a call.
    let calls = 0;
    const counting = turnstileVerifier({ secretKey: "s", fetcher: async () => (calls++, Response.json({})) });
    expect((await counting.verify(""))["error-codes"]).toEqual(["missing-input-response"]);
    expect((await counting.verify("x".repeat(2049)))["error-codes"]).toEqual(["invalid-input-response"]);
    expect(calls).toBe(0);
  });

  it("knows every documented Siteverify error code", () => {
    expect([...SITEVERIFY_ERRORS].sort()).toEqual(
      [
        "missing-input-secret",
        "invalid-input-secret",
        "missing-input-response",
        "invalid-input-response",
        "invalid-widget-id",
        "invalid-parsed-secret",
        "bad-request",
        "timeout-or-duplicate",
        "internal-error",
      ].sort(),
    );
  });
});

describe("the Turnstile stand-in", () => {
  it("passes a dummy token with the always-passes test secret, answering the documented success fields", async () => {
    const answer = await verifier().verify(dummyToken());
    expect(answer.success).toBe(true);
    expect(answer["error-codes"]).toEqual([]);
    expect(Object.keys(answer).sort()).toEqual(Object.keys(readAnswer(DOCUMENTED_SUCCESS)!).sort());
    expect(Number.isNaN(Date.parse(answer.challenge_ts!))).toBe(false);
    // Cloudflare's own dummy token, as its test site keys hand it out, passes too.
    expect((await verifier().verify(DUMMY_TOKEN)).success).toBe(true);
  });

  it("answers the always-fails and token-already-spent test secrets as documented", async () => {
    expect(await verifier(TEST_SECRET_KEYS.fails).verify(dummyToken())).toEqual(DOCUMENTED_FAILURE);
    expect(await verifier(TEST_SECRET_KEYS.spent).verify(dummyToken())).toEqual({
      success: false,
      "error-codes": ["timeout-or-duplicate"],
    });
  });

  it("spends a token once: its second check answers timeout-or-duplicate, unless it repeats the first check's idempotency key", async () => {
    const token = dummyToken();
    const key = crypto.randomUUID();
    const first = await verifier().verify(token, { idempotencyKey: key });
    expect(first.success).toBe(true);
    // A retry of the same check (the answer was lost on the way): the same answer.
    expect(await verifier().verify(token, { idempotencyKey: key })).toEqual(first);
    expect(await verifier().verify(token)).toEqual({ success: false, "error-codes": ["timeout-or-duplicate"] });
    expect(await verifier().verify(token, { idempotencyKey: crypto.randomUUID() })).toEqual({
      success: false,
      "error-codes": ["timeout-or-duplicate"],
    });
  });

  it("validates only dummy tokens with a test secret, and only test secrets", async () => {
    expect(await verifier().verify("0.real-looking-token-from-a-production-widget")).toEqual(DOCUMENTED_FAILURE);
    expect(await verifier("0x4AAAAAAAA-production-secret").verify(dummyToken())).toEqual({
      success: false,
      "error-codes": ["invalid-input-secret"],
    });
  });

  it("takes Siteverify's documented request forms: JSON, urlencoded and multipart; refuses a missing field or a GET", async () => {
    const json = await siteverify(
      JSON.stringify({ secret: TEST_SECRET_KEYS.passes, response: dummyToken() }),
      "application/json",
    );
    expect(((await json.json()) as { success: boolean }).success).toBe(true);
    const urlencoded = await siteverify(
      new URLSearchParams({ secret: TEST_SECRET_KEYS.passes, response: dummyToken() }).toString(),
      "application/x-www-form-urlencoded",
    );
    expect(((await urlencoded.json()) as { success: boolean }).success).toBe(true);
    const form = new FormData();
    form.append("secret", TEST_SECRET_KEYS.passes);
    form.append("response", dummyToken());
    form.append("remoteip", "203.0.113.7");
    expect(((await (await siteverify(form)).json()) as { success: boolean }).success).toBe(true);

    const codes = async (res: Response) => ((await res.json()) as { "error-codes": string[] })["error-codes"];
    expect(await codes(await siteverify(JSON.stringify({ response: dummyToken() }), "application/json"))).toEqual([
      "missing-input-secret",
    ]);
    expect(
      await codes(await siteverify(JSON.stringify({ secret: TEST_SECRET_KEYS.passes }), "application/json")),
    ).toEqual(["missing-input-response"]);
    expect(await codes(await siteverify("{not json", "application/json"))).toEqual(["bad-request"]);
    const get = await standIn()(`${TURNSTILE_STAND_IN_BASE}/siteverify`);
    expect(get.status).toBe(405);
  });
});

describe("Turnstile as the shop is configured", () => {
  const configured = (extra: Partial<Env>) => challengeService({ ...env, ...extra } as Env);

  it("development and test use the stand-in with Cloudflare's passing test keys, and the shop's own widget script", () => {
    const service = configured({ TURNSTILE_SECRET_KEY: undefined, TURNSTILE_SITE_KEY: undefined });
    expect(service?.challenge).toEqual({ site_key: TEST_SITE_KEYS.passes, script: STAND_IN_SCRIPT_PATH });
  });

  it("production takes Cloudflare's widget with the configured keys, and no challenge at all without them or with a test secret", () => {
    const production = { ENVIRONMENT: "production" as const, TURNSTILE_SITE_KEY: "0x4AAAAAAAsitekey" };
    expect(configured({ ...production, TURNSTILE_SECRET_KEY: "0x4AAAAAAAsecret" })?.challenge).toEqual({
      site_key: "0x4AAAAAAAsitekey",
      script: TURNSTILE_SCRIPT,
    });
    expect(configured({ ...production, TURNSTILE_SECRET_KEY: undefined })).toBeNull();
    expect(configured({ ...production, TURNSTILE_SECRET_KEY: TEST_SECRET_KEYS.passes })).toBeNull();
    expect(configured({ ENVIRONMENT: "production", TURNSTILE_SECRET_KEY: "0x4AAAAAAAsecret" })).toBeNull();
  });

  it("serves the stand-in widget script in development and test only", async () => {
    const res = await SELF.fetch(`http://shop.test${STAND_IN_SCRIPT_PATH}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    const script = await res.text();
    expect(script).toContain("window.turnstile");
    expect(script).toContain(TEST_SITE_KEYS.interactive);
    expect(script).toContain("تم بنجاح");
  });
});

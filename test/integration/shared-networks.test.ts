// Limits that do not punish shared networks (DESIGN §11, docs/SECURITY.md "Shared networks"): a
// Saudi carrier puts thousands of phones behind one address, so a network's count asks for a
// Turnstile challenge instead of refusing; per-shopper, per-email and per-order counts stay hard.
import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { backendApp } from "../../worker/backend";
import { CHALLENGE_HEADER } from "../../contract/challenge";
import {
  MAX_HOLDING_ORDERS,
  MAX_NETWORK_HOLDS,
  NETWORK_HOLDS_BEFORE_CHALLENGE,
} from "../../worker/backend/services/orders/checkout";
import {
  dummyToken,
  STAND_IN_SCRIPT_PATH,
  TEST_SECRET_KEYS,
  TEST_SITE_KEYS,
} from "../../worker/backend/services/challenge/turnstile-stand-in";
import type { Env } from "../../worker/env";
import { awayFromMinuteEdge, COUNTING_TIMEOUT } from "../support/accounts";
import { seedCatalogue } from "../support/catalogue";
import {
  address,
  call,
  checkoutWith,
  createProduct,
  freshIp,
  newGuest,
  stockOf,
  type Shopper,
} from "../support/commerce";

const CHALLENGE = { site_key: TEST_SITE_KEYS.passes, script: STAND_IN_SCRIPT_PATH };
const REQUIRED = {
  en: "Many people are shopping from your network right now. Confirm you are a person to continue.",
  ar: "يتسوق كثيرون من شبكتك الآن. أكّد أنك شخص حقيقي للمتابعة.",
};

/** Guests behind one address: a carrier's shared network. */
async function behind(ip: string, n: number, lang: "en" | "ar" = "en"): Promise<Shopper[]> {
  const shoppers = await Promise.all(Array.from({ length: n }, () => newGuest(lang)));
  for (const s of shoppers) s.headers["cf-connecting-ip"] = ip;
  return shoppers;
}

/** The shopper sending a Turnstile token with its next calls. */
const withToken = (shopper: Shopper, token = dummyToken()): Shopper => ({
  ...shopper,
  headers: { ...shopper.headers, [CHALLENGE_HEADER]: token },
});

/** A network already holding NETWORK_HOLDS_BEFORE_CHALLENGE unpaid orders, and a fresh guest on it. */
async function busyNetwork(lang: "en" | "ar" = "en") {
  const ip = freshIp();
  const [next, ...holders] = await behind(ip, NETWORK_HOLDS_BEFORE_CHALLENGE + 1, lang);
  for (const holder of holders) expect((await checkoutWith(holder, (await createProduct()).id)).status).toBe(201);
  return { ip, next };
}

describe("a network holding unpaid orders", () => {
  it("is challenged, not refused, past the threshold, in the shopper's language; a solved challenge places the order", async () => {
    for (const lang of ["en", "ar"] as const) {
      const { next } = await busyNetwork(lang);
      const product = await createProduct();
      const challenged = await checkoutWith(next, product.id);
      expect(challenged.status).toBe(428);
      expect(challenged.body).toEqual({ message: REQUIRED[lang], challenge: CHALLENGE });
      // Nothing was held for the challenged attempt.
      expect(await stockOf(product.id)).toBe(10);
      const passed = await call(withToken(next), "POST", "/checkout", {
        idempotency_key: crypto.randomUUID(),
        email: next.email,
        address,
        shipping_method: "standard",
        payment_method: "card",
      });
      expect(passed.status).toBe(201);
      expect(await stockOf(product.id)).toBe(9);
    }
  });

  it("refuses a token that does not pass, and a token already spent, with the challenge to show again", async () => {
    const { next } = await busyNetwork();
    const product = await createProduct();
    const forged = await checkoutWith(withToken(next, "made-up-by-a-script"), product.id);
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({
      message: "We could not confirm you are a person. Try the check again.",
      challenge: CHALLENGE,
    });
    const token = dummyToken();
    const other = (await behind(next.headers["cf-connecting-ip"], 1))[0];
    expect((await checkoutWith(withToken(other, token), (await createProduct()).id)).status).toBe(201);
    const replayed = await checkoutWith(withToken(next, token), product.id);
    expect(replayed.status).toBe(403);
    expect((replayed.body as { challenge?: unknown }).challenge).toEqual(CHALLENGE);
    expect(await stockOf(product.id)).toBe(10);
  });

  it("keeps the per-guest and per-email caps hard: a solved challenge does not lift them", async () => {
    const guest = await newGuest();
    for (let i = 0; i < MAX_HOLDING_ORDERS; i++) {
      expect((await checkoutWith(withToken(guest), (await createProduct()).id)).status).toBe(201);
    }
    const fourth = await checkoutWith(withToken(guest), (await createProduct()).id);
    expect(fourth.status).toBe(429);
    expect((fourth.body as { challenge?: unknown }).challenge).toBeUndefined();

    const email = `hoarder-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const ip = freshIp();
    const guests = await behind(ip, MAX_HOLDING_ORDERS + 1);
    for (const g of guests.slice(0, MAX_HOLDING_ORDERS)) {
      expect((await checkoutWith(withToken({ ...g, email }), (await createProduct()).id)).status).toBe(201);
    }
    const byEmail = await checkoutWith(withToken({ ...guests[MAX_HOLDING_ORDERS], email }), (await createProduct()).id);
    expect(byEmail.status).toBe(429);
  });

  it(
    "is refused at MAX_NETWORK_HOLDS even with valid tokens, so a network that solves challenges cannot take the shelf",
    { timeout: 180_000 },
    async () => {
      const ip = freshIp();
      const product = await createProduct({ stock: MAX_NETWORK_HOLDS + 10 });
      const shoppers = await behind(ip, MAX_NETWORK_HOLDS + 1);
      for (let i = 0; i < MAX_NETWORK_HOLDS; i += 20) {
        const answers = await Promise.all(
          shoppers.slice(i, Math.min(i + 20, MAX_NETWORK_HOLDS)).map((s) => checkoutWith(withToken(s), product.id)),
        );
        expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
      }
      const refused = await checkoutWith(withToken(shoppers[MAX_NETWORK_HOLDS]), product.id);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toBe(
        "Too many unpaid orders from your network are holding stock right now. Try again in a few minutes.",
      );
      expect(await stockOf(product.id)).toBe(10);
    },
  );

  it("fails the always-failing test secret's checks", async () => {
    const failing = { ...env, TURNSTILE_SECRET_KEY: TEST_SECRET_KEYS.fails } as Env;
    const ip = freshIp();
    const [a, b, c, d] = await behind(ip, 4);
    for (const holder of [a, b, c]) expect((await checkoutWith(holder, (await createProduct()).id)).status).toBe(201);
    const product = await createProduct();
    expect((await call(d, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 })).status).toBe(200);
    const res = await backendApp.request(
      "/checkout",
      {
        method: "POST",
        headers: { ...d.headers, [CHALLENGE_HEADER]: dummyToken(), "content-type": "application/json" },
        body: JSON.stringify({
          idempotency_key: crypto.randomUUID(),
          email: d.email,
          address,
          shipping_method: "standard",
          payment_method: "card",
        }),
      },
      failing,
    );
    expect(res.status).toBe(403);
  });
});

/** A promo check from a network address, with a token or without. */
async function checkPromo(shopper: Shopper, ip: string, token?: string, target: Env = env as Env) {
  const res = await backendApp.request(
    "/promo-code/check",
    {
      method: "POST",
      headers: {
        ...shopper.headers,
        accept: "application/json",
        "content-type": "application/json",
        "cf-connecting-ip": ip,
        ...(token ? { [CHALLENGE_HEADER]: token } : {}),
      },
      body: JSON.stringify({ code: "NOSUCHCODE" }),
    },
    target,
  );
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answer fields loosely
  return { status: res.status, body: (await res.json()) as any };
}

const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const randomNumber = () =>
  `SQ-${Array.from({ length: 8 }, () => ALPHABET[Math.floor(Math.random() * ALPHABET.length)]).join("")}`;

/** A tracking try for an order number nobody has (each its own, so only the network's count grows). */
async function track(ip: string, token?: string) {
  const res = await SELF.fetch("http://shop.test/backend/orders/track", {
    method: "POST",
    headers: {
      accept: "application/json",
      "content-type": "application/json",
      "cf-connecting-ip": ip,
      ...(token ? { [CHALLENGE_HEADER]: token } : {}),
    },
    body: JSON.stringify({ number: randomNumber(), contact: "someone@example.com" }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answer fields loosely
  return { status: res.status, body: (await res.json()) as any };
}

describe("a network's count past its threshold", () => {
  beforeAll(async () => {
    await seedCatalogue(env.DB);
  });

  it(
    "promo checks: the 21st in a minute from one network is challenged; with a token it is answered, and its guest is cleared",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      await awayFromMinuteEdge();
      const ip = freshIp();
      for (let i = 0; i < 20; i++) expect((await checkPromo(await newGuest(), ip)).status).toBe(422);
      const guest = await newGuest("ar");
      const challenged = await checkPromo(guest, ip);
      expect(challenged.status).toBe(428);
      expect(challenged.body).toEqual({ message: REQUIRED.ar, challenge: CHALLENGE });
      expect((await checkPromo(guest, ip, dummyToken())).status).toBe(422);
      // The guest solved one: it is not asked again for a while; a new guest on the network is.
      expect((await checkPromo(guest, ip)).status).toBe(422);
      expect((await checkPromo(await newGuest(), ip)).status).toBe(428);
    },
  );

  it(
    "order tracking: the 21st try in a minute from one network is challenged; a token answers it, once",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      await awayFromMinuteEdge();
      const ip = freshIp();
      for (let i = 0; i < 20; i++) expect((await track(ip)).status).toBe(422);
      const challenged = await track(ip);
      expect(challenged.status).toBe(428);
      expect(challenged.body.challenge).toEqual(CHALLENGE);
      const token = dummyToken();
      expect((await track(ip, token)).status).toBe(422);
      // No cart, no clearance: a spent token is refused, and the next try needs a new one.
      expect((await track(ip, token)).status).toBe(403);
      expect((await track(ip)).status).toBe(428);
    },
  );

  it(
    "a production shop without Turnstile keys cannot ask, so it refuses the network as the limit did",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      await awayFromMinuteEdge();
      const production = {
        ...env,
        ENVIRONMENT: "production",
        PUBLIC_ORIGIN: "https://souq.example",
        TURNSTILE_SECRET_KEY: undefined,
      } as Env;
      const ip = freshIp();
      for (let i = 0; i < 20; i++)
        expect((await checkPromo(await newGuest(), ip, undefined, production)).status).toBe(422);
      const refused = await checkPromo(await newGuest(), ip, dummyToken(), production);
      expect(refused.status).toBe(429);
      expect(refused.body.challenge).toBeUndefined();
    },
  );
});

import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { maskEmail } from "../../worker/backend/services/orders/orders";
import { awayFromMinuteEdge, COUNTING_TIMEOUT, freshIp } from "../support/accounts";
import { call, checkoutWith, createProduct, newGuest, type Shopper } from "../support/commerce";

/**
 * Order-tracking abuse: someone holding an order number (a receipt, a package
 * label) brute-forces its phone number through POST /orders/track and learns the email.
 */

interface Reply {
  status: number;
  headers: Headers;
  // `any`: tests read answer fields loosely and assert on each.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

async function trackFrom(ip: string, number: string, contact: string, lang: "en" | "ar" = "en"): Promise<Reply> {
  const res = await SELF.fetch("http://shop.test/backend/orders/track", {
    method: "POST",
    headers: {
      accept: "application/json",
      "content-type": "application/json",
      "content-language": lang,
      "cf-connecting-ip": ip,
    },
    body: JSON.stringify({ number, contact }),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

async function placedOrder(shopper: Shopper): Promise<string> {
  const product = await createProduct({ stock: 10 });
  const placed = await checkoutWith(shopper, product.id);
  expect(placed.status).toBe(201);
  return placed.body.data.number as string;
}

const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const randomNumber = () =>
  `SQ-${Array.from({ length: 8 }, () => ALPHABET[Math.floor(Math.random() * ALPHABET.length)]).join("")}`;
const wrongPhone = (i: number) => `+9665${String(10_000_000 + i * 7919).padStart(8, "0")}`;

describe("order-tracking abuse", () => {
  it(
    "order-tracking brute force: the 21st try in a minute from one network needs a Turnstile challenge",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      await awayFromMinuteEdge();
      const ip = freshIp();
      for (let i = 0; i < 20; i++) expect((await trackFrom(ip, randomNumber(), wrongPhone(i))).status).toBe(422);
      // A carrier's shared address is many shoppers: challenged, not refused (shared-networks.test.ts).
      const limited = await trackFrom(ip, randomNumber(), "someone@example.com", "ar");
      expect(limited.status).toBe(428);
      expect(limited.body.message).toBe("يتسوق كثيرون من شبكتك الآن. أكّد أنك شخص حقيقي للمتابعة.");
      expect(limited.body.challenge.site_key).toBeTruthy();
    },
  );

  it(
    "order-tracking brute force: guessing one order's phone from many networks answers 429 on the 21st try, whatever the number's case",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      const guest = await newGuest();
      const number = await placedOrder(guest);
      await awayFromMinuteEdge();
      for (let i = 0; i < 20; i++) {
        // Changing the case of the number does not give a fresh count.
        const asTyped = i % 2 ? number.toLowerCase() : number;
        expect((await trackFrom(freshIp(), asTyped, wrongPhone(i))).status).toBe(422);
      }
      // Even the right phone is refused once the order's count is spent.
      expect((await trackFrom(freshIp(), number, "+966512345678")).status).toBe(429);
      // Another order is not affected, and neither is the owner's own view.
      expect((await trackFrom(freshIp(), await placedOrder(await newGuest()), "+966512345678")).status).toBe(200);
      expect((await call(guest, "GET", `/orders/${number}`)).status).toBe(200);
    },
  );

  it("order-tracking email leak: a lookup by phone answers the email masked, and the owner still sees it whole", async () => {
    const guest = await newGuest();
    const number = await placedOrder(guest);
    const tracked = await trackFrom(freshIp(), number, "+966512345678");
    expect(tracked.status).toBe(200);
    const [local, domain] = guest.email.split("@");
    expect(tracked.body.data.email).toBe(`${local[0]}***@${domain[0]}***.example`);
    expect(JSON.stringify(tracked.body)).not.toContain(local);
    expect(JSON.stringify(tracked.body)).not.toContain(domain);
    // Tracking by email answers the same masked shape: one shape for every tracking answer.
    expect((await trackFrom(freshIp(), number, guest.email)).body.data.email).toBe(tracked.body.data.email);
    // The owner's own order view keeps the email.
    expect((await call(guest, "GET", `/orders/${number}`)).body.data.email).toBe(guest.email);
  });

  it("masks an email to its first letter, the domain's first letter and its last label", () => {
    expect(maskEmail("ahmed@example.com")).toBe("a***@e***.com");
    expect(maskEmail("Sara.Ali+shop@mail.example.co.uk")).toBe("S***@m***.uk");
    expect(maskEmail("x@localhost")).toBe("x***@l***");
    expect(maskEmail("not-an-email")).toBe("***");
  });
});

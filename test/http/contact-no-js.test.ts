import { describe, expect, it } from "vitest";
import { builtWorker } from "../support/http.ts";
import { awayFromMinuteEdge, COUNTING_TIMEOUT } from "../support/rate-window.ts";

// The no-JavaScript contact form posts to the storefront, which sends it on to the
// backend. The backend must count each visitor by their own address, not the storefront's.
const base = builtWorker().url;

const octet = () => 1 + Math.floor(Math.random() * 254);

function post(locale: "en" | "ar", ip: string, subject: string) {
  return fetch(`${base}/${locale}/contact-us`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": ip, origin: base },
    body: new URLSearchParams({
      name: "Sara Test",
      email: "sara@example.com",
      phone: "",
      subject,
      message: "A question about my order, please call me back.",
    }).toString(),
    redirect: "manual",
  });
}

describe("the contact form without JavaScript", () => {
  it("posts from six different visitors are counted apart: none is refused for another's limit", async () => {
    const prefix = `10.${octet()}.${octet()}`;
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++)
      statuses.push((await post(i % 2 ? "en" : "ar", `${prefix}.${i}`, `Question ${i}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it(
    "one visitor posting a sixth time within the minute is refused, in their language",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      const ip = `10.${octet()}.${octet()}.${octet()}`;
      await awayFromMinuteEdge();
      for (let i = 1; i <= 5; i++) expect((await post("en", ip, `Question ${i}`)).status).toBe(200);
      const refused = await post("ar", ip, "Question 6");
      expect(refused.status).toBe(429);
      expect(await refused.text()).toMatch(/[\u0600-\u06ff]/);
    },
  );
});

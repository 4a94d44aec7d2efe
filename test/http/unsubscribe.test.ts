import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { builtWorker, TEST_VARS } from "../support/http.ts";

// The page a message's stop link opens: it asks first (a GET changes nothing, as mail scanners
// follow links) and stops the topic when the shopper confirms, without JavaScript too.
const base = builtWorker().url;

/** The token the backend signs (services/messages/unsubscribe.ts), made here with the test worker's pepper. */
function tokenFor(recipient: string, topic: string): string {
  const hmac = (text: string) => createHmac("sha256", TEST_VARS.AUTH_PEPPER).update(text).digest("hex");
  const hash = hmac(`message-recipient\n${recipient.trim().toLowerCase()}`);
  return `${hash}.${hmac(`unsubscribe\n${topic}\n${hash}`)}`;
}

const confirm = (locale: "en" | "ar", topic: string, token: string) =>
  fetch(`${base}/${locale}/unsubscribe?${new URLSearchParams({ topic, token })}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ topic, token }).toString(),
    redirect: "manual",
  });

describe("the stop link's page", () => {
  it("asks before it stops anything, in the link's language, and is not indexed", async () => {
    const token = tokenFor("page@example.com", "stock_alert");
    const res = await fetch(`${base}/ar/unsubscribe?topic=stock_alert&token=${token}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("تنبيهات توفّر المنتجات من جديد");
    expect(html).toContain("أوقف هذه الرسائل");
    expect(html).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    expect(html).toContain(`value="${token}"`);
  });

  it("stops the topic when the shopper confirms, without JavaScript", async () => {
    const token = tokenFor("confirm@example.com", "review_invitation");
    const res = await confirm("en", "review_invitation", token);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("You will get no more of these messages.");
    // Confirming twice is harmless.
    expect((await confirm("en", "review_invitation", token)).status).toBe(200);
  });

  it("says plainly when the link was changed, and stops nothing", async () => {
    const token = tokenFor("changed@example.com", "review_invitation");
    const res = await confirm("ar", "stock_alert", token);
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("هذا الرابط لا يعمل");
    const missing = await fetch(`${base}/en/unsubscribe`);
    expect(missing.status).toBe(200);
    expect(await missing.text()).toContain("This link does not work");
  });
});

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journeyLocales, launchBrowser, newPage } from "../support/browser.ts";
import { builtWorker } from "../support/http.ts";

/**
 * Stored script in a name, an address or a contact message is rendered inert (escaped text),
 * and the CSP blocks any inline script that would slip into the page anyway.
 */
const base = builtWorker().url;
let browser: Browser;

const NAME = `<img src=x onerror="window.__xss='name'">Sara`;
const STREET = `<script>window.__xss='street'</script>King Fahd Road`;
const MESSAGE = `<script>window.__xss='contact'</script> Hello, is the phone in stock?`;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

let counter = 0;
async function backend(path: string, init: { method?: string; body?: unknown; token?: string; ip: string }) {
  const res = await fetch(`${base}/backend${path}`, {
    method: init.method ?? "GET",
    headers: {
      "content-type": "application/json",
      "cf-connecting-ip": init.ip,
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
}

/** Registers a user whose name carries markup, and signs the page in as the storefront does. */
async function signedInWithHostileData(page: Page): Promise<void> {
  const ip = `10.77.${counter}.${Math.floor(Math.random() * 250) + 1}`;
  const email = `xss-${Date.now()}-${counter++}@example.com`;
  const phone = `+9665${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  const reg = await backend("/client/auth/register", {
    method: "POST",
    ip,
    body: {
      name: NAME,
      email,
      phone,
      password: "correct horse battery staple",
      password_confirmation: "correct horse battery staple",
    },
  });
  expect(reg.status, JSON.stringify(reg.body)).toBeLessThan(300);
  const data = reg.body.data as { user: { id: number }; auth_data: { access_token: string } };
  const token = data.auth_data.access_token;
  const addr = await backend("/client/addresses", {
    method: "POST",
    ip,
    token,
    body: {
      label: "Home",
      name: NAME,
      phone,
      city: "Riyadh",
      district: "Olaya",
      street: STREET,
      building: "2929",
      postal_code: "12211",
    },
  });
  expect(addr.status, JSON.stringify(addr.body)).toBe(201);
  await page.goto(`${base}/en`);
  await page.evaluate(
    async ({ token, user }) => {
      sessionStorage.setItem("token", token);
      sessionStorage.setItem("userId", String(user.id));
      await fetch("/api/add-user", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token, user }),
      });
    },
    { token, user: data.user },
  );
}

const xssRan = (page: Page) => page.evaluate(() => (window as unknown as { __xss?: string }).__xss ?? null);

describe("stored script is inert", () => {
  for (const locale of journeyLocales("ar")) {
    it(`a name and an address with markup show as text on the account pages (${locale})`, async () => {
      const { context, page } = await newPage(browser);
      await signedInWithHostileData(page);

      await page.goto(`${base}/${locale}/profile`);
      await expect.poll(() => page.locator("main").innerText(), { timeout: 15_000 }).toContain("<img src=x");
      expect(await page.locator("main img[src='x']").count()).toBe(0);

      await page.goto(`${base}/${locale}/profile/addresses`);
      await expect
        .poll(() => page.locator("main").innerText(), { timeout: 15_000 })
        .toContain("<script>window.__xss='street'</script>");
      expect(await xssRan(page)).toBeNull();
      await context.close();
    });
  }

  it("a contact message with markup is stored as plain text and answered as JSON", async () => {
    const res = await backend("/contact", {
      method: "POST",
      ip: "10.78.0.1",
      body: { name: NAME, email: "xss@example.com", subject: "<b>Question</b>", message: MESSAGE },
    });
    expect(res.status).toBe(201);
    expect(JSON.stringify(res.body)).not.toContain("<script>");
  });

  it("the CSP blocks an inline script or handler that reaches the page", async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${base}/en`);
    const violations = await page.evaluate(async () => {
      const seen: string[] = [];
      document.addEventListener("securitypolicyviolation", (e) => seen.push(e.violatedDirective));
      const holder = document.createElement("div");
      // What stored markup would become if it ever reached the DOM as HTML: an inline handler
      // and a parser-inserted script, neither carrying the request's nonce.
      holder.innerHTML = `<img src="data:," onerror="window.__xss='handler'"><script>window.__xss='inline'</script>`;
      document.body.append(holder);
      await new Promise((r) => setTimeout(r, 300));
      return seen;
    });
    expect(await xssRan(page)).toBeNull();
    expect(violations.some((d) => d.startsWith("script-src"))).toBe(true);
    await context.close();
  });
});

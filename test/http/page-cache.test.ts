import { describe, expect, it } from "vitest";
import { builtWorker } from "../support/http.ts";

const base = builtWorker().url;

/** A URL of a public page no other test asks for, so this file sees its own misses and hits. */
const fresh = (path: string) => `${path}${path.includes("?") ? "&" : "?"}q=probe${crypto.randomUUID().slice(0, 8)}`;

function nonceOf(res: Response): string {
  const csp = res.headers.get("content-security-policy") ?? "";
  const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
  if (!nonce) throw new Error(`no nonce in ${csp}`);
  return nonce;
}

/** A signed-in visitor's cookie, made the way the storefront makes it (register, then /api/add-user). */
async function signedInCookie(): Promise<string> {
  const email = `page-cache-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const password = "page cache passphrase";
  const json = { "content-type": "application/json", origin: base };
  const registered = await fetch(`${base}/backend/client/auth/register`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ name: "Sara", email, phone: "", password, password_confirmation: password }),
  });
  expect(registered.status).toBe(201);
  const { data } = (await registered.json()) as { data: { user: unknown; auth_data: { access_token: string } } };
  const added = await fetch(`${base}/api/add-user`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ token: data.auth_data.access_token, user: data.user }),
  });
  expect(added.status).toBe(200);
  return added.headers.get("set-cookie")!.split(";")[0];
}

describe("the page cache (worker/page-cache.ts)", () => {
  it("renders a public page once, then serves the same page to the next anonymous visitor with that visitor's own nonce", async () => {
    const url = `${base}${fresh("/en/products")}`;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-page-cache")).toBe("MISS");
    const firstHtml = await first.text();
    // The copy is kept once the first answer has streamed out (waitUntil): give it a moment.
    let second = await fetch(url);
    for (let i = 0; i < 20 && second.headers.get("x-page-cache") !== "HIT"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      second = await fetch(url);
    }
    expect(second.headers.get("x-page-cache")).toBe("HIT");
    expect(second.headers.get("content-type")).toContain("text/html");
    expect(second.headers.get("cache-control")).toBe("no-cache");
    expect(second.headers.get("x-request-id")).toBeTruthy();
    const secondHtml = await second.text();

    const [a, b] = [nonceOf(first), nonceOf(second)];
    expect(a).not.toBe(b);
    // Every script of the copy carries the serving request's nonce, and the first one's is gone.
    const scripts = (secondHtml.match(/<script\b[^>]*>/g) ?? []).filter((tag) => !tag.includes("application/ld+json"));
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${b}"`);
    expect(secondHtml).not.toContain(a);
    // Apart from the nonce, the same document.
    expect(secondHtml.replaceAll(b, "NONCE")).toBe(firstHtml.replaceAll(a, "NONCE"));
  });

  it("renders afresh for a request with Cache-Control: no-cache (a hard reload)", async () => {
    const url = `${base}${fresh("/ar/products")}`;
    await (await fetch(url)).text();
    const reload = await fetch(url, { headers: { "cache-control": "no-cache" } });
    expect(reload.status).toBe(200);
    expect(reload.headers.get("x-page-cache")).toBe("BYPASS");
    expect(await reload.text()).toContain('dir="rtl"');
  });

  it("serves every ad click of a URL the one page kept for it: campaign and click tags are not part of the key", async () => {
    const path = fresh("/en/products");
    const first = await fetch(`${base}${path}&utm_source=newsletter&gclid=click-one`);
    expect(first.headers.get("x-page-cache")).toBe("MISS");
    const firstHtml = await first.text();
    // No page writes the tags (the language switch leaves them off), so the kept page is every click's.
    expect(firstHtml).not.toMatch(/utm_|gclid|click-one/);
    expect(firstHtml).toContain(`href="${path.replace("/en/", "/ar/")}"`);
    // The copy is kept once the first answer has streamed out: wait for the first click's own URL.
    const firstClick = `${base}${path}&utm_source=newsletter&gclid=click-one`;
    for (let i = 0; i < 20; i++) {
      const res = await fetch(firstClick);
      await res.text();
      if (res.headers.get("x-page-cache") === "HIT") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // Each other click is answered from that page on its own first request.
    for (const click of [
      `${path}&utm_source=newsletter&gclid=click-two`,
      `${path}&fbclid=other&utm_campaign=sale`,
      path,
    ]) {
      const res = await fetch(`${base}${click}`);
      expect(res.headers.get("x-page-cache"), click).toBe("HIT");
      expect((await res.text()).replaceAll(nonceOf(res), "NONCE")).toBe(firstHtml.replaceAll(nonceOf(first), "NONCE"));
    }
    // Any other parameter still makes a page of its own: only the route knows what it reads.
    const other = await fetch(`${base}${path}&ref=partner`);
    expect(other.headers.get("x-page-cache")).toBe("MISS");
    await other.text();
  });

  it("keeps the client navigations' .data payloads of a public page too", async () => {
    const url = `${base}${fresh("/en/products.data")}`;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toContain("text/x-script");
    const body = await first.text();
    let second = await fetch(url);
    for (let i = 0; i < 20 && second.headers.get("x-page-cache") !== "HIT"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      second = await fetch(url);
    }
    expect(second.headers.get("x-page-cache")).toBe("HIT");
    expect(await second.text()).toBe(body);
  });

  it("never answers a signed-in visitor from it, and never keeps their page", async () => {
    const cookie = await signedInCookie();
    const url = `${base}${fresh("/en/products")}`;
    for (let i = 0; i < 2; i++) {
      const res = await fetch(url, { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-page-cache")).toBeNull();
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      // Their header shows their account, not "sign in".
      expect(await res.text()).toMatch(/href="\/en\/profile"/);
    }
    // An anonymous visitor of the same URL is not given the signed-in page.
    const anonymous = await fetch(url);
    expect(anonymous.headers.get("x-page-cache")).toBe("MISS");
    expect(await anonymous.text()).toMatch(/href="\/en\/auth\/login"/);
  });

  it("never keeps the pages that are not the same for everyone (cart, checkout, sign-in, contact, errors)", async () => {
    for (const path of [
      "/en/shopping-cart",
      "/en/checkout",
      "/en/auth/login",
      "/ar/contact-us",
      `/en/product-details/no-such-${crypto.randomUUID().slice(0, 8)}`,
    ]) {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${base}${path}`, { redirect: "manual" });
        await res.arrayBuffer();
        expect(res.headers.get("x-page-cache"), path).toBeNull();
      }
    }
  });

  it("still sets the locale cookie on a kept page, as the redirect middleware does on a rendered one", async () => {
    const url = `${base}${fresh("/ar/products")}`;
    await (await fetch(url)).text();
    let hit = await fetch(url);
    for (let i = 0; i < 20 && hit.headers.get("x-page-cache") !== "HIT"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      hit = await fetch(url);
    }
    expect(hit.headers.get("x-page-cache")).toBe("HIT");
    expect(hit.headers.get("set-cookie")).toMatch(/^i18n_redirected=ar;/);
    // A visitor whose cookie already says ar (their preferred locale is part of the key, since
    // the page's root data carries it) gets a kept page without the cookie being set again.
    const cookie = { cookie: "i18n_redirected=ar" };
    await (await fetch(url, { headers: cookie })).text();
    let remembered = await fetch(url, { headers: cookie });
    for (let i = 0; i < 20 && remembered.headers.get("x-page-cache") !== "HIT"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      remembered = await fetch(url, { headers: cookie });
    }
    expect(remembered.headers.get("x-page-cache")).toBe("HIT");
    expect(remembered.headers.get("set-cookie")).toBeNull();
  });

  it("keeps the unprefixed home page apart per preferred locale", async () => {
    const ar = await fetch(`${base}/`, { headers: { "accept-language": "ar-SA,ar;q=0.9" } });
    expect(await ar.text()).toContain('lang="ar-SA"');
    for (let i = 0; i < 3; i++) {
      const en = await fetch(`${base}/`, { headers: { "accept-language": "en-US,en;q=0.9" } });
      expect(await en.text()).toContain('lang="en-US"');
      const again = await fetch(`${base}/`, { headers: { "accept-language": "ar-SA,ar;q=0.9" } });
      expect(await again.text()).toContain('lang="ar-SA"');
    }
  });
});

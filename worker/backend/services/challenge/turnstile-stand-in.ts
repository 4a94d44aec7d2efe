import type { SiteverifyAnswer, SiteverifyError } from "./turnstile";
import { MAX_TOKEN_LENGTH } from "./turnstile";

/**
 * Turnstile as development and test see it, offline. The real adapter (turnstile.ts) POSTs to this
 * fetcher in place of challenges.cloudflare.com, so every test runs the adapter's own requests; the
 * browser loads a small widget script from the shop itself (STAND_IN_SCRIPT_PATH), since it cannot
 * reach Cloudflare either. Both follow Cloudflare's published testing keys:
 *
 *   secret 1x0000000000000000000000000000000AA  a dummy token passes (once)
 *   secret 2x0000000000000000000000000000000AA  always fails: invalid-input-response
 *   secret 3x0000000000000000000000000000000AA  always fails: timeout-or-duplicate (already spent)
 *   site key 1x00000000000000000000AA           the widget passes at once (visible)
 *   site key 2x00000000000000000000AB           the widget blocks (no token)
 *   site key 3x00000000000000000000FF           the widget asks for a click first (interactive)
 *
 * A test secret validates only dummy tokens: XXXX.DUMMY.TOKEN.XXXX, the token Cloudflare's test site
 * keys hand out. The stand-in widget adds a random tail to it (XXXX.DUMMY.TOKEN.XXXX.<random>), so
 * that each of its tokens can be spent once, as a real token is: a token checked a second time
 * answers `timeout-or-duplicate`, unless the check repeats the first one's `idempotency_key`. Spent
 * tokens are remembered in KV for the 300 seconds a token lives.
 */

export const TURNSTILE_STAND_IN_BASE = "https://turnstile.stand-in.invalid/turnstile/v0";

/** Cloudflare's test secret keys. */
export const TEST_SECRET_KEYS = {
  passes: "1x0000000000000000000000000000000AA",
  fails: "2x0000000000000000000000000000000AA",
  spent: "3x0000000000000000000000000000000AA",
} as const;

/** Cloudflare's test site keys. */
export const TEST_SITE_KEYS = {
  passes: "1x00000000000000000000AA",
  blocks: "2x00000000000000000000AB",
  interactive: "3x00000000000000000000FF",
} as const;

/** The token Cloudflare's test site keys produce. */
export const DUMMY_TOKEN = "XXXX.DUMMY.TOKEN.XXXX";

/** A fresh dummy token, as the stand-in widget makes them: the dummy token and a random tail. */
export const dummyToken = () => `${DUMMY_TOKEN}.${crypto.randomUUID()}`;

const isDummy = (token: string) => token === DUMMY_TOKEN || token.startsWith(`${DUMMY_TOKEN}.`);

/** How long a token lives, and so how long a spent one is remembered. */
const TOKEN_SECONDS = 300;

interface Spent {
  idempotency_key: string | null;
  answer: SiteverifyAnswer;
}

const spentKey = async (token: string) => {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
  return `stand-in:turnstile:spent:${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
};

const answer = (body: SiteverifyAnswer, status = 200) => Response.json(body, { status });
const failed = (code: SiteverifyError, status = 200) => answer({ success: false, "error-codes": [code] }, status);

/** The request's fields: Siteverify takes JSON or a form (urlencoded or multipart). */
async function fieldsOf(request: Request): Promise<Record<string, string> | null> {
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.includes("application/json")) {
      const json: unknown = await request.json();
      if (!json || typeof json !== "object" || Array.isArray(json)) return null;
      return Object.fromEntries(
        Object.entries(json as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string"),
      );
    }
    const form = await request.formData();
    const fields: Record<string, string> = {};
    form.forEach((value, name) => {
      if (typeof value === "string") fields[name] = value;
    });
    return fields;
  } catch {
    return null;
  }
}

export function turnstileStandIn(kv: KVNamespace): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    if (path !== `${new URL(TURNSTILE_STAND_IN_BASE).pathname}/siteverify`)
      return new Response("Not found", { status: 404 });
    if (request.method !== "POST") return failed("bad-request", 405);
    const fields = await fieldsOf(request);
    if (!fields) return failed("bad-request", 400);
    const { secret, response: token } = fields;
    if (!secret) return failed("missing-input-secret");
    if (!(Object.values(TEST_SECRET_KEYS) as string[]).includes(secret)) return failed("invalid-input-secret");
    if (!token) return failed("missing-input-response");
    if (secret === TEST_SECRET_KEYS.fails) return failed("invalid-input-response");
    if (secret === TEST_SECRET_KEYS.spent) return failed("timeout-or-duplicate");
    if (token.length > MAX_TOKEN_LENGTH || !isDummy(token)) return failed("invalid-input-response");

    const key = await spentKey(token);
    const idempotency = fields.idempotency_key || null;
    const spent = await kv.get<Spent>(key, "json");
    if (spent) {
      // A retry of the same check (same idempotency key) gets the first answer again.
      if (idempotency && spent.idempotency_key === idempotency) return answer(spent.answer);
      return failed("timeout-or-duplicate");
    }
    const passed: SiteverifyAnswer = {
      success: true,
      "error-codes": [],
      challenge_ts: new Date().toISOString(),
      hostname: "example.com",
      action: "",
      cdata: "",
      metadata: { interactive: false },
    };
    const record: Spent = { idempotency_key: idempotency, answer: passed };
    await kv.put(key, JSON.stringify(record), { expirationTtl: TOKEN_SECONDS });
    return answer(passed);
  };
}

/** Where the shop serves the stand-in widget script (development and test only). */
export const STAND_IN_SCRIPT_PATH = "/backend/challenge/stand-in/api.js";

/** The widget's words, in each language the storefront asks for (`language` of render). */
export interface StandInWords {
  checking: string;
  verify: string;
  success: string;
  blocked: string;
}

/**
 * The part of Turnstile's browser API the storefront uses, offline: `turnstile.render(container,
 * { sitekey, callback, "error-callback", language })` draws a small box that passes, blocks or asks
 * for a click by the test site key, and hands `callback` a fresh dummy token; `reset` and `remove`
 * as documented. No network, no iframe.
 */
export function standInScript(words: Record<"en" | "ar", StandInWords>): string {
  return `(() => {
  "use strict";
  const WORDS = ${JSON.stringify(words)};
  const KEYS = ${JSON.stringify(TEST_SITE_KEYS)};
  const DUMMY = ${JSON.stringify(DUMMY_TOKEN)};
  const widgets = new Map();
  let next = 0;
  const fresh = () => DUMMY + "." + crypto.randomUUID();
  function draw(id) {
    const w = widgets.get(id);
    const words = WORDS[String(w.options.language || "en").slice(0, 2) === "ar" ? "ar" : "en"];
    w.box.replaceChildren();
    w.token = "";
    const text = document.createElement("span");
    w.box.append(text);
    const pass = () => {
      w.token = fresh();
      w.box.dataset.state = "success";
      text.textContent = words.success;
      if (typeof w.options.callback === "function") w.options.callback(w.token);
    };
    if (w.options.sitekey === KEYS.blocks) {
      w.box.dataset.state = "blocked";
      text.textContent = words.blocked;
      if (typeof w.options["error-callback"] === "function") w.options["error-callback"]("600010");
      return;
    }
    if (w.options.sitekey === KEYS.interactive) {
      w.box.dataset.state = "interactive";
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.addEventListener("change", () => { label.remove(); pass(); }, { once: true });
      label.append(box, " ", words.verify);
      w.box.prepend(label);
      return;
    }
    w.box.dataset.state = "checking";
    text.textContent = words.checking;
    setTimeout(() => { if (widgets.get(id) === w) pass(); }, 300);
  }
  window.turnstile = {
    render(container, options) {
      const host = typeof container === "string" ? document.querySelector(container) : container;
      if (!host) throw new Error("turnstile stand-in: no container");
      const id = "stand-in-" + ++next;
      const box = document.createElement("div");
      box.className = "turnstile-stand-in";
      box.setAttribute("role", "group");
      box.style.cssText = "display:inline-flex;align-items:center;gap:.5rem;min-inline-size:300px;min-block-size:65px;padding-inline:1rem;border:1px solid #d0d0d0;border-radius:4px;background:#fafafa;color:#222;font:14px system-ui,sans-serif";
      host.append(box);
      widgets.set(id, { box, options: options || {}, token: "" });
      draw(id);
      return id;
    },
    reset(id) { const key = id ?? [...widgets.keys()].pop(); if (widgets.has(key)) draw(key); },
    remove(id) { const w = widgets.get(id); if (w) { w.box.remove(); widgets.delete(id); } },
    getResponse(id) { return widgets.get(id ?? [...widgets.keys()].pop())?.token || undefined; },
    isExpired() { return false; },
    ready(fn) { fn(); },
  };
})();
`;
}

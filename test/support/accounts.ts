// Fixtures for the account tests: a small client for /backend and /api that speaks like the
// storefront (content-language, Bearer, guest-id), fresh identities, and the development outbox.
import { SELF } from "cloudflare:test";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** A fresh caller address, so one test's rate-limit counts never touch another's. */
export const freshIp = () =>
  `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${Math.floor(1 + Math.random() * 254)}`;
export const freshEmail = () => `shopper-${unique()}@example.com`;
export const freshPhone = () => `+9665${String(Math.floor(Math.random() * 100_000_000)).padStart(8, "0")}`;
export const STRONG_PASSWORD = "correct horse battery staple";

export interface Answer {
  status: number;
  headers: Headers;
  // `any`: tests read answer fields loosely and assert on each; typing every shape is noise.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface CallOptions {
  token?: string;
  lang?: "en" | "ar";
  ip?: string;
  headers?: Record<string, string>;
}

export async function call(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "content-language": opts.lang ?? "en",
    "cf-connecting-ip": opts.ip ?? freshIp(),
    ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    ...(body !== undefined ? { "content-type": "application/json" } : {}),
    ...opts.headers,
  };
  const res = await SELF.fetch(`https://shop.test/backend${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the test sees the text.
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

export interface Registered {
  id: number;
  email: string;
  phone: string;
  password: string;
  token: string;
}

/** Registers through the real API, from an address of its own. */
export async function register(
  overrides: Partial<{ name: string; email: string; phone: string; password: string }> = {},
  opts: CallOptions = {},
): Promise<Registered> {
  const email = overrides.email ?? freshEmail();
  const phone = overrides.phone ?? freshPhone();
  const password = overrides.password ?? STRONG_PASSWORD;
  const res = await call(
    "POST",
    "/client/auth/register",
    { name: overrides.name ?? "Sara Ahmed", email, phone, password, password_confirmation: password },
    opts,
  );
  if (res.status !== 201) throw new Error(`register answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.user.id, email, phone, password, token: res.body.data.auth_data.access_token };
}

export interface OutboxEntry {
  to: string;
  purpose: string;
  code: string;
  created_at: string;
}

async function readOutboxNow(to: string): Promise<OutboxEntry[]> {
  const res = await call("GET", `/dev/outbox?to=${encodeURIComponent(to)}`);
  if (res.status !== 200) throw new Error(`outbox answered ${res.status}`);
  return res.body.data;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long the outbox must stay unchanged to count as settled. */
const OUTBOX_SETTLE_MS = 200;
const OUTBOX_WAIT_MS = 5_000;

/**
 * The outbox for `to`, newest first, once it has settled. Codes asked for through reset-password
 * and resend-code are issued and delivered after the answer (waitUntil, so the answer time does
 * not tell a known account from an unknown one), so a test reads the outbox only once it has
 * stopped changing; that also makes "nothing more was sent" a fair check.
 */
export async function outbox(to: string): Promise<OutboxEntry[]> {
  const deadline = Date.now() + OUTBOX_WAIT_MS;
  let last = await readOutboxNow(to);
  let stableSince = Date.now();
  while (Date.now() - stableSince < OUTBOX_SETTLE_MS && Date.now() < deadline) {
    await sleep(40);
    const next = await readOutboxNow(to);
    if (JSON.stringify(next) !== JSON.stringify(last)) {
      last = next;
      stableSince = Date.now();
    }
  }
  return last;
}

/** The newest code sent to `to` for `purpose`, waiting briefly for one delivered after the answer. */
export async function latestCode(to: string, purpose: "verify" | "reset" | "sign_in" | "erase"): Promise<string> {
  const deadline = Date.now() + OUTBOX_WAIT_MS;
  for (;;) {
    const entry = (await outbox(to)).find((e) => e.purpose === purpose);
    if (entry) return entry.code;
    if (Date.now() > deadline) throw new Error(`no ${purpose} code for ${to}`);
    await sleep(50);
  }
}

export { awayFromMinuteEdge, COUNTING_TIMEOUT } from "./rate-window";
/** Every sign-up and sign-in runs PBKDF2 at 100,000 iterations; on a loaded machine a test of several takes more than 5 s. */
export const SLOW_CRYPTO_TIMEOUT = 30_000;

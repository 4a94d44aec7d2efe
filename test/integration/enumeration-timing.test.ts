// M3 (security review): reset-password, resend-code and code-password-verify must not answer a
// known account measurably slower (or faster) than an unknown one. Each test times interleaved
// pairs (known, unknown) and applies a two-sided sign test over the pairs; a Mann-Whitney U over
// the two samples is printed beside it. A pair's two calls run back to back, so a burst of load on
// the machine slows both alike; the order inside a pair alternates so neither kind always goes first.
import { describe, expect, it } from "vitest";
import { call, freshEmail, register, type Registered } from "../support/accounts";

const PAIRS = 60;
/** Known accounts used in turn, so no account reaches a per-account limit during the run. */
const ACCOUNTS = 15;
/**
 * Significance level for "the two kinds differ". Strict on purpose: a run on an idle or a loaded
 * machine must not flake (under no difference a false alarm is 1 in 1,000 per endpoint), while a
 * real extra D1 round trip shows in nearly every pair (p around 1e-9 on the old code).
 */
const ALPHA = 0.001;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** log(n choose k), for exact binomial tails without overflow. */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/** Two-sided exact sign test: how many pairs had the known call slower, ties dropped. */
export function signTest(known: number[], unknown: number[]): { slower: number; faster: number; ties: number; p: number } {
  let slower = 0;
  let faster = 0;
  for (let i = 0; i < known.length; i++) {
    if (known[i] > unknown[i]) slower++;
    else if (known[i] < unknown[i]) faster++;
  }
  const n = slower + faster;
  const k = Math.min(slower, faster);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return { slower, faster, ties: known.length - n, p: n === 0 ? 1 : Math.min(1, 2 * tail) };
}

/** Normal CDF (Abramowitz-Stegun 7.1.26 through erf), enough for a printed p-value. */
function normalCdf(z: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(z) / Math.SQRT2));
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-(z * z) / 2);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Mann-Whitney U with mid-ranks for ties and the normal approximation (tie-corrected variance). */
export function mannWhitney(a: number[], b: number[]): { u: number; z: number; p: number } {
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const ranks = new Array<number>(all.length);
  let tieTerm = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1].v === all[i].v) j++;
    for (let k = i; k <= j; k++) ranks[k] = (i + j) / 2 + 1;
    const t = j - i + 1;
    tieTerm += t ** 3 - t;
    i = j + 1;
  }
  const n1 = a.length;
  const n2 = b.length;
  const r1 = all.reduce((s, x, i) => (x.g === 0 ? s + ranks[i] : s), 0);
  const u = r1 - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  const z = sigma === 0 ? 0 : (u - (n1 * n2) / 2) / sigma;
  return { u, z, p: 2 * (1 - normalCdf(Math.abs(z))) };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function timed(f: () => Promise<{ status: number }>, expected: number): Promise<number> {
  const start = performance.now();
  const res = await f();
  const elapsed = performance.now() - start;
  expect(res.status).toBe(expected);
  // Work a call left for after its answer (waitUntil) finishes before the next call is timed,
  // so one kind's leftovers never land on the other kind's clock.
  await sleep(100);
  return elapsed;
}

async function comparePairs(label: string, known: (i: number) => Promise<{ status: number }>, unknown: () => Promise<{ status: number }>, expected: number) {
  const k: number[] = [];
  const u: number[] = [];
  // A warm-up pair, not counted: the first calls of a run pay for compiling and caches.
  await known(0);
  await unknown();
  for (let i = 0; i < PAIRS; i++) {
    if (i % 2 === 0) {
      k.push(await timed(() => known(i), expected));
      u.push(await timed(unknown, expected));
    } else {
      u.push(await timed(unknown, expected));
      k.push(await timed(() => known(i), expected));
    }
  }
  const sign = signTest(k, u);
  const mw = mannWhitney(k, u);
  const report = {
    endpoint: label,
    pairs: PAIRS,
    median_known_ms: Number(median(k).toFixed(2)),
    median_unknown_ms: Number(median(u).toFixed(2)),
    sign_test: { known_slower: sign.slower, known_faster: sign.faster, ties: sign.ties, p: Number(sign.p.toPrecision(3)) },
    mann_whitney: { U: mw.u, z: Number(mw.z.toFixed(2)), p: Number(mw.p.toPrecision(3)) },
  };
  console.log(JSON.stringify({ event: "enumeration-timing", ...report }));
  return { sign, mw, report };
}

describe("enumeration by timing (M3)", () => {
  it("enumeration by timing: reset-password answers a known and an unknown account in indistinguishable time", { timeout: 120_000 }, async () => {
    const accounts: Registered[] = [];
    for (let i = 0; i < ACCOUNTS; i++) accounts.push(await register());
    const { sign, report } = await comparePairs(
      "reset-password",
      (i) => call("POST", "/client/auth/reset-password", { email: accounts[i % ACCOUNTS].email }),
      () => call("POST", "/client/auth/reset-password", { email: freshEmail() }),
      200,
    );
    expect(sign.p, JSON.stringify(report)).toBeGreaterThanOrEqual(ALPHA);
  });

  it("enumeration by timing: code-password-verify answers a known account (with a live code) and an unknown one in indistinguishable time", { timeout: 120_000 }, async () => {
    const accounts: Registered[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const user = await register();
      // The victim has a live reset code: the case where a check touches the most rows.
      expect((await call("POST", "/client/auth/reset-password", { email: user.email })).status).toBe(200);
      accounts.push(user);
    }
    await sleep(200);
    const { sign, report } = await comparePairs(
      "code-password-verify",
      (i) => call("POST", "/client/auth/code-password-verify", { email: accounts[i % ACCOUNTS].email, code: "000000", purpose: "reset" }),
      () => call("POST", "/client/auth/code-password-verify", { email: freshEmail(), code: "000000", purpose: "reset" }),
      422,
    );
    expect(sign.p, JSON.stringify(report)).toBeGreaterThanOrEqual(ALPHA);
  });

  it("the sign test and Mann-Whitney U flag a real difference and accept an equal one", () => {
    const base = Array.from({ length: 40 }, (_, i) => 10 + ((i * 7) % 5));
    expect(signTest(base.map((x) => x + 1), base).p).toBeLessThan(1e-9);
    expect(mannWhitney(base.map((x) => x + 5), base).p).toBeLessThan(1e-6);
    expect(signTest(base, base).p).toBe(1);
    const alternating = base.map((x, i) => (i % 2 ? x + 1 : x - 1));
    expect(signTest(alternating, base).p).toBeGreaterThan(0.5);
  });
});

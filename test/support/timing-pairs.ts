// Timing two kinds of request against each other (test/integration/enumeration-timing*.test.ts):
// interleaved pairs (known, unknown), an exact two-sided sign test over the pairs, and a
// Mann-Whitney U over the two samples printed beside it. A pair's two calls run back to back, so a
// burst of load on the machine slows both alike; the order inside a pair alternates so neither kind
// always goes first. The endpoints are split over two files that run side by side (the rigs step
// is mostly these pauses): to a pair, the other file's calls are load like any other.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { register, type Registered } from "./accounts";

/**
 * Pairs per endpoint. code-password-verify gets more: on the old code its extra work was a single
 * D1 statement, the smallest difference to find on a loaded machine.
 */
export const PAIRS = { reset: 100, verify: 200 };
/** Known accounts used in turn, so that none reaches a per-account limit during a run (old code included). */
const ACCOUNTS = 25;
/**
 * Significance level for "the two kinds differ", split between the two tests (Bonferroni): the
 * sign test over pairs and Mann-Whitney U over the samples. Strict on purpose: a run on an idle
 * or a loaded machine must not flake (under no difference a false alarm is 1 in 1,000 per
 * endpoint), while one extra D1 round trip on the old code gave p from 1e-4 down to 1e-14 in at
 * least one of the two tests in every run.
 */
const ALPHA = 0.001;
const EACH = ALPHA / 2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * The untimed pause before each pair. Work a known call leaves for after its answer starts
 * DEFERRED_START_MS later (after the pair's other call) and must finish before the next pair.
 */
export const PAUSE_MS = 120;

/** log(n choose k), for exact binomial tails without overflow. */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/** Two-sided exact sign test: how many pairs had the known call slower, ties dropped. */
export function signTest(
  known: number[],
  unknown: number[],
): { slower: number; faster: number; ties: number; p: number } {
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
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-(z * z) / 2);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Mann-Whitney U with mid-ranks for ties and the normal approximation (tie-corrected variance). */
export function mannWhitney(a: number[], b: number[]): { u: number; z: number; p: number } {
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const ranks = new Array<number>(all.length);
  let tieTerm = 0;
  for (let i = 0; i < all.length;) {
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
  return elapsed;
}

export async function comparePairs(
  label: string,
  pairs: number,
  known: (i: number) => Promise<{ status: number }>,
  unknown: () => Promise<{ status: number }>,
  expected: number,
) {
  const k: number[] = [];
  const u: number[] = [];
  // A warm-up pair, not counted: the first calls of a run pay for compiling and caches.
  await known(0);
  await unknown();
  for (let i = 0; i < pairs; i++) {
    await sleep(PAUSE_MS);
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
    pairs,
    median_known_ms: Number(median(k).toFixed(2)),
    median_unknown_ms: Number(median(u).toFixed(2)),
    sign_test: {
      known_slower: sign.slower,
      known_faster: sign.faster,
      ties: sign.ties,
      p: Number(sign.p.toPrecision(3)),
    },
    mann_whitney: { U: mw.u, z: Number(mw.z.toFixed(2)), p: Number(mw.p.toPrecision(3)) },
  };
  console.log(JSON.stringify({ event: "enumeration-timing", ...report }));
  return { sign, mw, report };
}

/** Registers the known accounts a file uses in turn. */
export async function knownAccounts(): Promise<Registered[]> {
  const accounts: Registered[] = [];
  for (let i = 0; i < ACCOUNTS; i++) accounts.push(await register());
  return accounts;
}

/** Neither test may call the two kinds different at EACH (ALPHA split between the two). */
export function expectIndistinguishable({ sign, mw, report }: Awaited<ReturnType<typeof comparePairs>>): void {
  expect(sign.p, JSON.stringify(report)).toBeGreaterThanOrEqual(EACH);
  expect(mw.p, JSON.stringify(report)).toBeGreaterThanOrEqual(EACH);
}

/**
 * Gives every known account a live code of `purpose` (the test before in the file left one; run
 * alone, `ask` asks for it), then lets the deferred sends finish: the case where a code check
 * touches the most rows.
 */
export async function withLiveCodes(
  accounts: Registered[],
  purpose: "reset" | "sign_in",
  ask: (user: Registered) => Promise<{ status: number }>,
): Promise<void> {
  for (const user of accounts) {
    const live = await env.DB.prepare(
      "SELECT id FROM otp_codes WHERE user_id = ? AND purpose = ? AND consumed_at IS NULL",
    )
      .bind(user.id, purpose)
      .first();
    if (!live) expect((await ask(user)).status).toBe(200);
  }
  await sleep(500);
}

// M3 (security review), the code sign-in: code/request and code/verify must not answer a known
// number measurably slower (or faster) than an unknown one. Timed side by side with
// enumeration-timing.test.ts; how a pair is timed and judged: test/support/timing-pairs.ts.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, freshPhone, type Registered } from "../support/accounts";
import { comparePairs, expectIndistinguishable, knownAccounts, PAIRS, sleep } from "../support/timing-pairs";

describe("enumeration by timing (M3), code sign-in", () => {
  let accounts: Registered[] = [];
  beforeAll(async () => {
    accounts = await knownAccounts();
  }, 120_000);

  it(
    "enumeration by timing: code/request answers a known and an unknown number in indistinguishable time",
    { timeout: 120_000 },
    async () => {
      expectIndistinguishable(
        await comparePairs(
          "code/request",
          PAIRS.reset,
          (i) => call("POST", "/client/auth/code/request", { phone: accounts[i % accounts.length].phone }),
          () => call("POST", "/client/auth/code/request", { phone: freshPhone() }),
          200,
        ),
      );
    },
  );

  it(
    "enumeration by timing: code/verify answers a known number (with a live code) and an unknown one in indistinguishable time",
    { timeout: 120_000 },
    async () => {
      // Every known number has a live sign-in code (the test above left one; run alone, this asks).
      for (const user of accounts) {
        const live = await env.DB.prepare(
          "SELECT id FROM otp_codes WHERE user_id = ? AND purpose = 'sign_in' AND consumed_at IS NULL",
        )
          .bind(user.id)
          .first();
        if (!live) expect((await call("POST", "/client/auth/code/request", { phone: user.phone })).status).toBe(200);
      }
      await sleep(500);
      expectIndistinguishable(
        await comparePairs(
          "code/verify",
          PAIRS.verify,
          (i) =>
            call("POST", "/client/auth/code/verify", { phone: accounts[i % accounts.length].phone, code: "000000" }),
          () => call("POST", "/client/auth/code/verify", { phone: freshPhone(), code: "000000" }),
          422,
        ),
      );
    },
  );
});

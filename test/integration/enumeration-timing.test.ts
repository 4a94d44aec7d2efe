// M3 (security review): reset-password, resend-code and code-password-verify must not answer a
// known account measurably slower (or faster) than an unknown one; the code sign-in's endpoints
// are timed in enumeration-timing-phone.test.ts, side by side with these. resend-code runs the
// same requestCode as reset-password. How a pair is timed and judged: test/support/timing-pairs.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { DEFERRED_START_MS } from "../../worker/backend/services/accounts/accounts";
import { call, freshEmail, type Registered } from "../support/accounts";
import {
  comparePairs,
  expectIndistinguishable,
  knownAccounts,
  mannWhitney,
  PAIRS,
  PAUSE_MS,
  signTest,
  withLiveCodes,
} from "../support/timing-pairs";

describe("enumeration by timing (M3)", () => {
  let accounts: Registered[] = [];
  beforeAll(async () => {
    accounts = await knownAccounts();
  }, 120_000);

  it(
    "enumeration by timing: reset-password answers a known and an unknown account in indistinguishable time",
    { timeout: 120_000 },
    async () => {
      expectIndistinguishable(
        await comparePairs(
          "reset-password",
          PAIRS.reset,
          (i) => call("POST", "/client/auth/reset-password", { email: accounts[i % accounts.length].email }),
          () => call("POST", "/client/auth/reset-password", { email: freshEmail() }),
          200,
        ),
      );
    },
  );

  it(
    "enumeration by timing: code-password-verify answers a known account (with a live code) and an unknown one in indistinguishable time",
    { timeout: 120_000 },
    async () => {
      await withLiveCodes(accounts, "reset", (user) =>
        call("POST", "/client/auth/reset-password", { email: user.email }),
      );
      expectIndistinguishable(
        await comparePairs(
          "code-password-verify",
          PAIRS.verify,
          (i) =>
            call("POST", "/client/auth/code-password-verify", {
              email: accounts[i % accounts.length].email,
              code: "000000",
              purpose: "reset",
            }),
          () =>
            call("POST", "/client/auth/code-password-verify", {
              email: freshEmail(),
              code: "000000",
              purpose: "reset",
            }),
          422,
        ),
      );
    },
  );

  it("the sign test and Mann-Whitney U flag a real difference and accept an equal one", () => {
    expect(DEFERRED_START_MS + 40).toBeLessThanOrEqual(PAUSE_MS);
    const base = Array.from({ length: 40 }, (_, i) => 10 + ((i * 7) % 5));
    expect(
      signTest(
        base.map((x) => x + 1),
        base,
      ).p,
    ).toBeLessThan(1e-9);
    expect(
      mannWhitney(
        base.map((x) => x + 5),
        base,
      ).p,
    ).toBeLessThan(1e-6);
    expect(signTest(base, base).p).toBe(1);
    const alternating = base.map((x, i) => (i % 2 ? x + 1 : x - 1));
    expect(signTest(alternating, base).p).toBeGreaterThan(0.5);
  });
});

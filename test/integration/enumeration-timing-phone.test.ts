// M3 (security review), the code sign-in: code/request and code/verify must not answer a known
// number measurably slower (or faster) than an unknown one. Timed side by side with
// enumeration-timing.test.ts; how a pair is timed and judged: test/support/timing-pairs.ts.
import { beforeAll, describe, it } from "vitest";
import { call, freshPhone, type Registered } from "../support/accounts";
import { comparePairs, expectIndistinguishable, knownAccounts, PAIRS, withLiveCodes } from "../support/timing-pairs";

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
      await withLiveCodes(accounts, "sign_in", (user) =>
        call("POST", "/client/auth/code/request", { phone: user.phone }),
      );
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

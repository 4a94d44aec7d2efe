import { beforeAll, describe, expect, it } from "vitest";
import ar from "../../locales/ar.json";
import en from "../../locales/en.json";
import { answer, intentOf, textOf, unknownIntent } from "../../app/lib/actions";
import { ApiError } from "../../app/lib/api/errors";
import { registerMessages } from "../../app/lib/i18n";

// What a route's clientAction answers its form (app/lib/actions.ts): the backend's success with its
// value, a refusal as data (status, message, field errors) for the form to show, and the common
// handler's redirects thrown for React Router to follow. It shows nothing itself.

beforeAll(() => {
  registerMessages("en", en);
  registerMessages("ar", ar);
});

describe("a route action's answer", () => {
  it("reads the intent only when it is one the route knows", () => {
    const form = new FormData();
    form.set("intent", "ship");
    expect(intentOf(form, ["ship", "refund"] as const)).toBe("ship");
    expect(intentOf(form, ["refund"] as const)).toBeNull();
    expect(intentOf(new FormData(), ["ship"] as const)).toBeNull();
    expect(textOf(form, "missing")).toBe("");
  });

  it("a success carries what the backend answered, and its message when there is one", async () => {
    expect(await answer("en", "ship", async () => ({ data: { number: "SQ-1" } }))).toEqual({
      ok: true,
      intent: "ship",
      value: { number: "SQ-1" },
    });
    expect(await answer("en", "resend", async () => ({ data: null, message: "Declined" }))).toMatchObject({
      ok: true,
      message: "Declined",
    });
  });

  it("a 422 comes back as data with the backend's field errors, for the dialog's fields", async () => {
    const refused = await answer("ar", "refund", async () => {
      throw new ApiError(422, "المبلغ أكبر من المتبقي", { amount: ["المبلغ أكبر من المتبقي"] });
    });
    expect(refused).toEqual({
      ok: false,
      intent: "refund",
      status: 422,
      message: "المبلغ أكبر من المتبقي",
      errors: [{ type: "amount", message: "المبلغ أكبر من المتبقي" }],
    });
  });

  it("a 401 or 404 is thrown as the redirect the common handler asks for", async () => {
    const thrown = await answer("ar", "process", async () => {
      throw new ApiError(401, "Unauthenticated");
    }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("location")).toBe("/ar/auth/login");
    const missing = await answer("en", "process", async () => {
      throw new ApiError(404, "Not found");
    }).catch((e: unknown) => e);
    expect((missing as Response).headers.get("location")).toBe("/error");
  });

  it("no answer at all is the common handler's 'no response', for the form to toast", async () => {
    const lost = await answer("en", "ship", async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(lost).toMatchObject({ ok: false, status: 500, message: en.errors.noResponse, errors: [] });
    expect(unknownIntent("en")).toMatchObject({ ok: false, status: 400, message: en.errors.default });
  });
});

import { describe, expect, it } from "vitest";
import { say } from "../../contract/server/i18n";
import { msg } from "../../worker/backend/messages";

describe("msg: the backend's catalogue accessor", () => {
  it("gives a message in both languages, as the code wrote it before it moved to the catalogue", () => {
    expect(msg("orders.promo.usedUp")).toEqual({
      en: "This promo code has reached its usage limit.",
      ar: "وصل رمز الخصم هذا إلى الحد الأقصى للاستخدام.",
    });
  });

  it("fills placeholders in both languages, as say does in one", () => {
    expect(msg("orders.cart.onlyLeft", { n: 3 })).toEqual({
      en: "Only 3 left in stock.",
      ar: "المتبقي في المخزون 3 فقط.",
    });
    expect(say("ar", msg("orders.cart.onlyLeft"), { n: 3 })).toBe("المتبقي في المخزون 3 فقط.");
  });
});

import { describe, expect, it } from "vitest";
import { detectReviewLang } from "../../contract/reviews";
import { screenText as screenReview } from "../../worker/backend/services/shared/screening";

// The screening of a review's text (worker/backend/services/shared/screening.ts): what it flags,
// and what everyday reviews of electronics say without being flagged.

const ALL = { screen_links: true, screen_contacts: true, blocked_words: ["rip-off", "نصب واحتيال"] };

describe("review screening", () => {
  it.each([
    ["http://bit.ly/x", ["link"]],
    ["HTTPS://SHOP.EXAMPLE", ["link"]],
    ["visit www.example", ["link"]],
    ["cheap at example.net/deal", ["link"]],
    ["amazon.sa has it", ["link"]],
    ["ｗｗｗ.example.com", ["link"]],
    ["mail: name.surname@mail.co.uk", ["email"]],
    ["0551234567", ["phone"]],
    ["055-123-4567", ["phone"]],
    ["(055) 123 4567", ["phone"]],
    ["٠٥٥١٢٣٤٥٦٧", ["phone"]],
    ["۰۵۵۱۲۳۴۵۶۷", ["phone"]],
    ["00966551234567", ["phone"]],
    ["+1 415 555 0100", ["phone"]],
    ["920012345", ["phone"]],
    ["011 234 5678", ["phone"]],
    ["a rip-off, really", ["word"]],
    ["RIP-OFF", ["word"]],
    ["هذا نصب و احتيال", []],
    ["هذا نَصْب واحتيال", ["word"]],
    ["see www.x.com or x@y.com, call 0551234567, total rip-off", ["link", "email", "phone", "word"]],
  ])("%s → %j", (text, flags) => {
    expect(screenReview(text, ALL)).toEqual(flags);
  });

  it.each([
    "Weighs 1.5 kg and the 6.1 inch screen is sharp",
    "Battery went from 100 to 20 in 9 hours",
    "Model SM-S928B, 256 GB, bought 2 of them",
    "Rated 4.5/5, i.e. very good; e.g. the camera",
    "Works with iOS 17.2 and Android 14",
    "الشاشة ٦٫١ بوصة والبطارية ٥٠٠٠ مللي أمبير",
    "Version 2.0.1 fixed it",
    "ripoffs are everywhere, not this one",
  ])("leaves an everyday review alone: %s", (text) => {
    expect(screenReview(text, ALL)).toEqual([]);
  });

  it("looks only for what the settings ask", () => {
    const text = "www.example.com x@y.com 0551234567 rip-off";
    expect(screenReview(text, { screen_links: false, screen_contacts: false, blocked_words: [] })).toEqual([]);
    expect(screenReview(text, { screen_links: true, screen_contacts: false, blocked_words: [] })).toEqual(["link"]);
  });

  it("tells an Arabic review by its letters", () => {
    expect(detectReviewLang("ممتاز great")).toBe("ar");
    expect(detectReviewLang("Great, 5 stars ٥")).toBe("en");
  });
});

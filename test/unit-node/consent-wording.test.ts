import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONSENT_PURPOSES, CONSENT_WORDING } from "../../contract/consents";

// A consent record keeps the text the backend's catalogue holds for the purpose's wording version;
// the shopper reads the storefront's copy. They must be the same words, or the record would
// prove agreement to something the shopper never saw.
const json = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), "utf8"));

describe("consent wording", () => {
  for (const lang of ["en", "ar"] as const) {
    it(`is the same on the page and in the record (${lang})`, () => {
      const shown = json(`locales/${lang}.json`).consents;
      const recorded = json(`worker/backend/messages/${lang}.json`).consents;
      for (const purpose of CONSENT_PURPOSES) {
        expect(shown[purpose]).toBeTruthy();
        expect(recorded[purpose][CONSENT_WORDING[purpose]]).toBe(shown[purpose]);
      }
    });
  }
});

// Steps of a purchase in Chromium that several journeys take: the checkout's address and the
// sandbox provider's card page.
import type { Page } from "playwright-core";
import ar from "../../locales/ar.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };

const MESSAGES = { en, ar } as const;
type Locale = keyof typeof MESSAGES;

/** A message of the locale files, with rosetta's {{name}} placeholders filled in. */
export function msg(locale: Locale, key: string, params: Record<string, string | number> = {}): string {
  const value = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], MESSAGES[locale]);
  if (typeof value !== "string") throw new Error(`missing message ${key} in ${locale}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ""));
}

/** On the sandbox provider's own card page: a card number, any future expiry, any CVC, pay. */
export async function payWithCard(page: Page, card: string): Promise<void> {
  await page.waitForURL(/\/backend\/payments\/sandbox\//);
  await page.locator("#card-number").fill(card);
  await page.locator("#card-expiry").fill("12/30");
  await page.locator("#card-cvc").fill("123");
  await page.locator('button[name="action"][value="pay"]').click();
}

/** The checkout's new-address fields, in the locale's words (and the email a guest gives). */
export async function fillNewAddress(page: Page, locale: Locale, who: { email?: string; name: string }): Promise<void> {
  if (who.email !== undefined) await page.getByLabel(msg(locale, "checkout.email")).fill(who.email);
  await page.locator("#co-name").fill(who.name);
  await page.locator("#co-phone").fill("501234567");
  await page.locator("#co-city").fill(locale === "ar" ? "الرياض" : "Riyadh");
  await page.locator("#co-district").fill(locale === "ar" ? "العليا" : "Al Olaya");
  await page.locator("#co-street").fill(locale === "ar" ? "طريق الملك فهد" : "King Fahd Road");
}

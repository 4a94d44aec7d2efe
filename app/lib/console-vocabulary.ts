import type { Translate } from "./i18n";

/**
 * The console's names for the codes the backend answers with (payment providers, currencies), in
 * the reader's language. A code the console does not know yet shows as it came, never as a key.
 */
const PROVIDERS = new Set(["sandbox", "moyasar", "tabby", "tamara", "cod"]);
const CURRENCIES = new Set(["SAR"]);

/** A payment provider's name: "Test gateway (sandbox)" / "بوابة الدفع التجريبية", "Moyasar" / "ميسّر". */
export function providerName(t: Translate, provider: string): string {
  return PROVIDERS.has(provider) ? t(`console.vocabulary.providers.${provider}`) : provider;
}

/** A currency as a field label names it: "SAR" / "ر.س.". */
export function currencyName(t: Translate, currency: string): string {
  return CURRENCIES.has(currency) ? t(`console.vocabulary.currencies.${currency}`) : currency;
}

import { instalmentPlan, type BnplProvider, type InstalmentRule } from "../../contract/instalments";
import { translate } from "./i18n";
import type { Locale } from "./locales";
import { formatMoney } from "./money";

/** A pay-later line as shown: the provider (for its mark) and the sentence. */
export interface InstalmentText {
  provider: BnplProvider;
  text: string;
}

/**
 * The pay-later lines for an amount: "4 interest-free payments of SAR 1,274.75 with Tabby", one
 * per rule whose limits hold it. When the halalas do not divide, the first payment (today's)
 * carries them and the line says so. A page whose prices come formatted from its loader gets these
 * from the loader too, so hydrating it builds no Intl formatter.
 */
export function instalmentTexts(
  rules: readonly InstalmentRule[] | undefined,
  amount: number,
  currency: string,
  locale: Locale,
): InstalmentText[] {
  return (rules ?? []).flatMap((rule) => {
    const plan = instalmentPlan(rule, amount);
    if (!plan) return [];
    const money = (halalas: number) => formatMoney(halalas, currency, locale);
    const provider = translate(locale, `instalments.providers.${rule.provider}`);
    const [first, rest] = [plan[0], plan[plan.length - 1]];
    const text =
      first === rest
        ? translate(locale, "instalments.even", { count: plan.length, amount: money(rest), provider })
        : translate(locale, "instalments.uneven", {
            first: money(first),
            count: plan.length - 1,
            amount: money(rest),
            provider,
          });
    return [{ provider: rule.provider, text }];
  });
}

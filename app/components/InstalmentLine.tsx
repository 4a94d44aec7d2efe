import { instalmentPlan, type InstalmentRule } from "../../contract/instalments";
import { formatMoney } from "../lib/money";
import { useLocale, useT } from "../lib/use-locale";
import { PaymentMarks } from "./checkout/PaymentMarks";

/**
 * The pay-later line under a price: "4 interest-free payments of SAR 1,274.75 with Tabby", drawn
 * by the shop from the provider's rule (no provider script), for each rule whose limits hold the
 * amount; nothing for the others. When the halalas do not divide, the first payment (today's)
 * carries them and the line says so.
 */
export function InstalmentLine({
  rules,
  amount,
  currency,
}: {
  rules: readonly InstalmentRule[] | undefined;
  amount: number;
  currency: string;
}) {
  const t = useT();
  const locale = useLocale();
  const lines = (rules ?? []).flatMap((rule) => {
    const plan = instalmentPlan(rule, amount);
    return plan ? [{ rule, plan }] : [];
  });
  if (!lines.length) return null;
  return (
    <>
      {lines.map(({ rule, plan }) => {
        const provider = t(`instalments.providers.${rule.provider}`);
        const money = (halalas: number) => formatMoney(halalas, currency, locale);
        const [first, rest] = [plan[0], plan[plan.length - 1]];
        return (
          <p key={rule.provider} className="instalments" data-provider={rule.provider}>
            <PaymentMarks marks={[rule.provider]} />
            <span className="instalments__text">
              {first === rest
                ? t("instalments.even", { count: plan.length, amount: money(rest), provider })
                : t("instalments.uneven", {
                    first: money(first),
                    count: plan.length - 1,
                    amount: money(rest),
                    provider,
                  })}
            </span>
          </p>
        );
      })}
    </>
  );
}

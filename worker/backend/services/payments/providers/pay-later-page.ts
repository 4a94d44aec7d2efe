import type { Lang } from "../../../env";
import { escapeHtml } from "../../../../../contract/server/html";
import { money } from "./sandbox";

/**
 * The plan a pay-later stand-in's hosted page shows: today's payment, then one a month, in the
 * language's own words for a month ahead ("In 2 months", "خلال شهرين").
 */
export function planList(lang: Lang, plan: number[], currency: string, today: string): string {
  const months = new Intl.RelativeTimeFormat(lang === "ar" ? "ar-SA-u-nu-latn" : "en-US", { numeric: "auto" });
  const rows = plan
    .map(
      (part, i) =>
        `<dt>${escapeHtml(i === 0 ? today : months.format(i, "month"))}</dt><dd><bdi>${escapeHtml(money(part, currency, lang))}</bdi></dd>`,
    )
    .join("");
  return `<dl>${rows}</dl>`;
}

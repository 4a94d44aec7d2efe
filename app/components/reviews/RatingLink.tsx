import type { RatingSummary } from "../../../contract/reviews";
import { countOf } from "../../lib/plural";
import { formatAverage, hasRating } from "../../lib/reviews";
import { useLocale, useT } from "../../lib/use-locale";
import { Stars } from "./Stars";

/**
 * The product's stars and review count beside its name, from the product answer's rating
 * (rendered on the server, no request of its own), linking down to the reviews section.
 */
export function RatingLink({ rating }: { rating?: RatingSummary | null }) {
  const t = useT();
  const locale = useLocale();
  if (!hasRating(rating)) return null;
  const average = formatAverage(rating.average);
  return (
    <a href="#reviews" className="rating-link">
      <Stars average={rating.average} />
      <span aria-hidden="true">{average}</span>
      <span aria-hidden="true" className="rating-link__count">
        {countOf(t, locale, "reviews.count", rating.count)}
      </span>
      <span className="visually-hidden">{t("reviews.stars.label", { average, count: rating.count })}</span>
    </a>
  );
}

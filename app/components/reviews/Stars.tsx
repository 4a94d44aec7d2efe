import type { CSSProperties } from "react";
import type { RatingSummary } from "../../../contract/reviews";
import { formatAverage, hasRating, starPercent } from "../../lib/reviews";
import { useT } from "../../lib/use-locale";

/**
 * Five stars filled to an average (to the nearest half), drawn by CSS alone (app/styles/catalogue.css
 * `.stars`: one element, a masked gradient that mirrors in Arabic), so a list of 48 cards adds no
 * SVG markup and no script. Decorative: the text beside it says the rating.
 */
export function Stars({ average, className }: { average: number; className?: string }) {
  return (
    <span
      className={className ? `stars ${className}` : "stars"}
      style={{ "--stars": `${starPercent(average)}%` } as CSSProperties}
      aria-hidden="true"
    />
  );
}

/**
 * A product's rating in one line, "★★★★½ 4.5 (12)", read out as one sentence; nothing without
 * published reviews. On a card it is text; beside a product page's name (`href`) it links to the
 * reviews below.
 */
export function Rating({ rating, href }: { rating: RatingSummary | null | undefined; href?: string }) {
  const t = useT();
  if (!hasRating(rating)) return null;
  const average = formatAverage(rating.average);
  const line = (
    <>
      <Stars average={rating.average} />
      <span aria-hidden="true">{`${average} (${rating.count})`}</span>
      <span className="visually-hidden">{t("reviews.stars.label", { average, count: rating.count })}</span>
    </>
  );
  return href ? (
    <a href={href} className="card-rating rating-link">
      {line}
    </a>
  ) : (
    <p className="card-rating">{line}</p>
  );
}

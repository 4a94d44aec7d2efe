import { lazy } from "react";
import type { RatingSummary } from "../../../contract/reviews";
import { BelowFold } from "../BelowFold";
import { hasRating } from "../../lib/reviews";
import { useT } from "../../lib/use-locale";

const ReviewsSection = lazy(() => import("./ReviewsSection"));

/**
 * The product page's reviews section (components/BelowFold.tsx): the page renders its heading
 * (the rating the product answer carried is beside the product's name, linking here); the
 * section's code and its first page of reviews load once it comes within a screen of the viewport.
 */
export function ReviewsSlot({ slug, rating }: { slug: string; rating?: RatingSummary | null }) {
  const t = useT();
  return (
    <BelowFold
      id="reviews"
      className="reviews"
      title={t("reviews.title")}
      placeholder={
        <p className="muted reviews__placeholder">{hasRating(rating) ? t("reviews.loading") : t("reviews.none")}</p>
      }
    >
      <ReviewsSection slug={slug} />
    </BelowFold>
  );
}

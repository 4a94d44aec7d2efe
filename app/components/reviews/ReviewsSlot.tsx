import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { RatingSummary } from "../../../contract/reviews";
import { hasRating } from "../../lib/reviews";
import { useT } from "../../lib/use-locale";

/**
 * The product page's reviews section, below the fold. The page renders only its heading (the
 * rating the product answer carried is beside the product's name); the section's code and its first
 * page of reviews load once it comes within a screen of the viewport, so neither is in the page's first-load JavaScript (budgets.json) nor
 * delays the page becoming usable.
 */
const ReviewsSection = lazy(() => import("./ReviewsSection"));

/** How far ahead of the viewport the section starts loading. */
const AHEAD = "800px 0px";

export function ReviewsSlot({ slug, rating }: { slug: string; rating?: RatingSummary | null }) {
  const t = useT();
  const ref = useRef<HTMLElement>(null);
  const [wanted, setWanted] = useState(false);

  useEffect(() => {
    const section = ref.current;
    if (!section || wanted) return;
    // A link to #reviews (the stars beside the name) scrolls it into view, which the observer sees.
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setWanted(true), {
      rootMargin: AHEAD,
    });
    observer.observe(section);
    return () => observer.disconnect();
  }, [wanted]);

  const placeholder = (
    <p className="muted reviews__placeholder" aria-busy={wanted}>
      {hasRating(rating) ? t("reviews.loading") : t("reviews.none")}
    </p>
  );

  return (
    <section id="reviews" ref={ref} className="section reviews" aria-labelledby="reviews-title">
      <h2 id="reviews-title">{t("reviews.title")}</h2>
      {wanted ? (
        <Suspense fallback={placeholder}>
          <ReviewsSection slug={slug} />
        </Suspense>
      ) : (
        placeholder
      )}
    </section>
  );
}

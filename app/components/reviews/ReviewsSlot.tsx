import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { RatingSummary } from "../../../contract/reviews";
import { whenIdle } from "../../client/idle";
import { countOf } from "../../lib/plural";
import { formatAverage, hasRating } from "../../lib/reviews";
import { useLocale, useT } from "../../lib/use-locale";
import { Stars } from "./Stars";

/**
 * The product page's reviews section, below the fold. The page renders only its heading and the
 * rating the product answer carried (server-side, no request); the section's code and its first
 * page of reviews load once it comes within a screen of the viewport (or the visitor followed a
 * link to #reviews), so neither is in the page's first-load JavaScript (budgets.json) nor
 * delays the page becoming usable.
 */
const ReviewsSection = lazy(() => import("./ReviewsSection"));

/** How far ahead of the viewport the section starts loading. */
const AHEAD = "800px 0px";

export function ReviewsSlot({ slug, rating }: { slug: string; rating?: RatingSummary | null }) {
  const t = useT();
  const locale = useLocale();
  const ref = useRef<HTMLElement>(null);
  const [wanted, setWanted] = useState(false);

  useEffect(() => {
    const section = ref.current;
    if (!section || wanted) return;
    const want = () => setWanted(true);
    if (location.hash === "#reviews") return whenIdle(want);
    const onHash = () => {
      if (location.hash === "#reviews") want();
    };
    window.addEventListener("hashchange", onHash);
    if (typeof IntersectionObserver === "undefined") {
      const cancel = whenIdle(want);
      return () => {
        cancel();
        window.removeEventListener("hashchange", onHash);
      };
    }
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && want(), {
      rootMargin: AHEAD,
    });
    observer.observe(section);
    return () => {
      observer.disconnect();
      window.removeEventListener("hashchange", onHash);
    };
  }, [wanted]);

  const rated = hasRating(rating);
  const placeholder = (
    <div className="reviews__placeholder" aria-busy={wanted}>
      {rated ? (
        <p className="reviews__average">
          <span className="reviews__average-number">{formatAverage(rating.average)}</span>
          <Stars average={rating.average} className="stars--lg" />
          <span className="muted">{countOf(t, locale, "reviews.count", rating.count)}</span>
        </p>
      ) : (
        <p className="muted">{t("reviews.none")}</p>
      )}
    </div>
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

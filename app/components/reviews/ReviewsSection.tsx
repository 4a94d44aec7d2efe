import { useEffect, useId, useRef, useState, type CSSProperties } from "react";
import { useNavigate } from "react-router";
import {
  REVIEW_SORTS,
  type PublicReview,
  type RatingDistribution,
  type ReviewEligibility,
  type ReviewLang,
  type ReviewReportReason,
  type ReviewSort,
  type ReviewsPage,
} from "../../../contract/reviews";
import { shopLongDay } from "../../../contract/shop-time";
import { toast } from "../../client/toast";
import { browserApi } from "../../lib/api/browser";
import { listReviews, markReviewHelpful, reportReview, reviewEligibility } from "../../lib/api/reviews";
import { handleBrowserError } from "../../lib/browser-errors";
import { ensureGuestId } from "../../lib/cart";
import { Link } from "../../lib/link";
import { countOf } from "../../lib/plural";
import { readStored } from "../../lib/tab-storage";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";
import { Stylesheet } from "../Stylesheet";
import { PhotoViewer } from "./PhotoViewer";
import { ReportDialog } from "./ReportDialog";
import reviewsCss from "../../styles/reviews.css?url";

/**
 * A product's reviews below the fold (loaded by ReviewsSlot once the section nears the viewport):
 * the distribution (its bars filter by stars), sort and filters, the reviews a page at a time, each
 * with its photos, the store's reply, "Helpful" and "Report"; and for a signed-in buyer the way to
 * write (or edit) their own. Every text a shopper wrote is rendered as text.
 */

/**
 * The stars as the cards draw them (Stars.tsx, catalogue.css `.stars`), written here again so this
 * chunk does not depend on the product cards' chunk (each dependency is named in the product
 * page's first-load script). The average comes rounded to one decimal.
 */
function Stars({ average, className = "" }: { average: number; className?: string }) {
  const percent = Math.round(Math.min(Math.max(average, 0), 5) * 2) * 10;
  return (
    <span className={`stars ${className}`} style={{ "--stars": `${percent}%` } as CSSProperties} aria-hidden="true" />
  );
}
const formatAverage = (average: number) => average.toFixed(1);

interface Query {
  sort: ReviewSort;
  stars: number | null;
  lang: ReviewLang | null;
  page: number;
}

const FIRST: Query = { sort: "newest", stars: null, lang: null, page: 1 };

export default function ReviewsSection({ slug }: { slug: string }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const id = useId();
  const [query, setQuery] = useState<Query>(FIRST);
  const [page, setPage] = useState<(ReviewsPage & { query: Query }) | null>(null);
  const [summary, setSummary] = useState<RatingDistribution | null>(null);
  const [failed, setFailed] = useState(false);
  const [eligibility, setEligibility] = useState<ReviewEligibility | null>(null);
  // Never rendered on the server (ReviewsSlot loads it in the browser): the tab's storage is there to read.
  const [signedIn] = useState(() => Boolean(readStored("token")));
  const listRef = useRef<HTMLDivElement>(null);
  const moved = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    listReviews(
      browserApi(locale),
      slug,
      {
        sort: query.sort,
        stars: query.stars ?? undefined,
        lang: query.lang ?? undefined,
        page: query.page,
      },
      controller.signal,
    )
      .then((res) => {
        setPage({ ...res, query });
        if (res.summary) setSummary(res.summary);
        setFailed(false);
        if (moved.current) {
          moved.current = false;
          listRef.current?.focus({ preventScroll: false });
        }
      })
      .catch(() => {
        if (controller.signal.aborted) return;
        setFailed(true);
      });
    return () => controller.abort();
  }, [slug, locale, query]);

  // Only a signed-in shopper can review: their eligibility is theirs alone, never in the cached page.
  useEffect(() => {
    if (!signedIn) return;
    const controller = new AbortController();
    reviewEligibility(browserApi(locale), slug, controller.signal)
      .then((res) => setEligibility(res.data))
      .catch(() => undefined);
    return () => controller.abort();
  }, [slug, locale, signedIn]);

  const turn = (page: number) => {
    moved.current = true;
    setQuery((q) => ({ ...q, page }));
  };

  const change = (next: Partial<Query>, focusList = false) => {
    moved.current = focusList;
    setQuery((q) => ({ ...q, page: 1, ...next }));
  };

  const loading = !failed && page?.query !== query;
  const total = summary?.count ?? 0;
  const writeHref = `${to("/reviews/write")}?product=${encodeURIComponent(slug)}`;
  const own = eligibility?.own ?? null;
  const filtered = query.stars !== null || query.lang !== null;
  const reviews = page?.data ?? [];
  const meta = page?.meta;

  return (
    <div className="reviews__body">
      <Stylesheet href={reviewsCss} />
      <div className="reviews__top">
        {summary && total > 0 ? (
          <div className="reviews__summary">
            <p className="reviews__average">
              <span className="reviews__average-number">{formatAverage(summary.average)}</span>
              <Stars average={summary.average} className="stars--lg" />
              <span className="visually-hidden">
                {t("reviews.stars.label", { average: formatAverage(summary.average), count: total })}
              </span>
            </p>
            <p className="muted reviews__count" aria-hidden="true">
              {countOf(t, locale, "reviews.count", total)}
            </p>
            <ul className="reviews__bars" aria-label={t("reviews.distribution.label")}>
              {[5, 4, 3, 2, 1].map((stars) => {
                const n = summary.stars[stars - 1] ?? 0;
                const share = total ? Math.round((n / total) * 100) : 0;
                const active = query.stars === stars;
                return (
                  <li key={stars}>
                    <button
                      type="button"
                      className="reviews__bar"
                      aria-pressed={active}
                      disabled={n === 0 && !active}
                      onClick={() => change({ stars: active ? null : stars }, true)}
                    >
                      <span className="reviews__bar-label">
                        {countOf(t, locale, "reviews.distribution.stars", stars)}
                      </span>
                      <span className="reviews__bar-track" aria-hidden="true">
                        <span className="reviews__bar-fill" style={{ inlineSize: `${share}%` }} />
                      </span>
                      <span className="reviews__bar-count">
                        <span aria-hidden="true">{n}</span>
                        <span className="visually-hidden">
                          {t("reviews.distribution.share", { share, count: countOf(t, locale, "reviews.count", n) })}
                        </span>
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          </div>
        ) : null}
        <div className="reviews__write">
          {own ? (
            <>
              <p className="reviews__own">
                {t(`reviews.own.${own.status}`)}
                {own.status === "rejected" && own.reject_reason ? (
                  <>
                    {" "}
                    <span className="muted">{t("reviews.own.because", { reason: own.reject_reason })}</span>
                  </>
                ) : null}
              </p>
              <Link to={writeHref} className="button">
                {t("reviews.own.edit")}
              </Link>
            </>
          ) : eligibility?.can_review ? (
            <Link to={writeHref} className="button button--primary">
              {t("reviews.write.button")}
            </Link>
          ) : (
            <p className="muted reviews__who">
              {signedIn && eligibility ? t("reviews.write.notBought") : t("reviews.write.buyersOnly")}
            </p>
          )}
        </div>
      </div>

      {total > 0 ? (
        <div className="reviews__controls" role="group" aria-label={t("reviews.controls.label")}>
          <div className="field field--inline">
            <label htmlFor={`${id}-sort`}>{t("reviews.controls.sort")}</label>
            <select
              id={`${id}-sort`}
              value={query.sort}
              onChange={(e) => change({ sort: e.target.value as ReviewSort })}
            >
              {REVIEW_SORTS.map((s) => (
                <option key={s} value={s}>
                  {t(`reviews.sorts.${s}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="field field--inline">
            <label htmlFor={`${id}-stars`}>{t("reviews.controls.stars")}</label>
            <select
              id={`${id}-stars`}
              value={query.stars ?? ""}
              onChange={(e) => change({ stars: e.target.value ? Number(e.target.value) : null })}
            >
              <option value="">{t("reviews.controls.allStars")}</option>
              {[5, 4, 3, 2, 1].map((s) => (
                <option key={s} value={s}>
                  {countOf(t, locale, "reviews.distribution.stars", s)}
                </option>
              ))}
            </select>
          </div>
          <div className="field field--inline">
            <label htmlFor={`${id}-lang`}>{t("reviews.controls.lang")}</label>
            <select
              id={`${id}-lang`}
              value={query.lang ?? ""}
              onChange={(e) => change({ lang: (e.target.value || null) as ReviewLang | null })}
            >
              <option value="">{t("reviews.controls.allLangs")}</option>
              <option value="en">{t("reviews.langs.en")}</option>
              <option value="ar">{t("reviews.langs.ar")}</option>
            </select>
          </div>
          {filtered ? (
            <button type="button" className="button button--ghost" onClick={() => change({ stars: null, lang: null })}>
              {t("reviews.controls.clear")}
            </button>
          ) : null}
        </div>
      ) : null}

      {/* What a change of sort, filter or page found, said once (the list itself is not read out). */}
      <p className="visually-hidden" role="status">
        {page && !loading && filtered ? countOf(t, locale, "reviews.count", page.meta.total) : ""}
      </p>
      <div
        ref={listRef}
        className="reviews__list"
        aria-busy={loading}
        tabIndex={-1}
        aria-label={t("reviews.list")}
        role="region"
      >
        {failed ? (
          <p className="notice notice--danger" role="alert">
            {t("reviews.loadFailed")}{" "}
            <button
              type="button"
              className="button button--ghost"
              onClick={() => {
                setFailed(false);
                setQuery((q) => ({ ...q }));
              }}
            >
              {t("reviews.retry")}
            </button>
          </p>
        ) : page && reviews.length === 0 ? (
          <p className="muted reviews__empty">{filtered ? t("reviews.noneMatch") : t("reviews.none")}</p>
        ) : null}
        {reviews.map((review) => (
          <ReviewItem
            key={review.id}
            review={review}
            onError={(e) => handleBrowserError(e, locale, (p) => void navigate(p))}
          />
        ))}
      </div>

      {meta && meta.last_page > 1 ? (
        <nav className="reviews__pages" aria-label={t("reviews.pages")}>
          <button type="button" className="button" disabled={meta.page <= 1} onClick={() => turn(meta.page - 1)}>
            <span aria-hidden="true" className="icon-flip">
              ‹
            </span>{" "}
            {t("reviews.previous")}
          </button>
          <span aria-current="page">{t("reviews.pageOf", { page: meta.page, last: meta.last_page })}</span>
          <button
            type="button"
            className="button"
            disabled={meta.page >= meta.last_page}
            onClick={() => turn(meta.page + 1)}
          >
            {t("reviews.next")}{" "}
            <span aria-hidden="true" className="icon-flip">
              ›
            </span>
          </button>
        </nav>
      ) : null}
    </div>
  );
}

/** One published review: stars, title, text, author, badge, date, photos, reply, Helpful and Report. */
function ReviewItem({ review, onError }: { review: PublicReview; onError: (error: unknown) => void }) {
  const t = useT();
  const locale = useLocale();
  const titleId = useId();
  const [helpful, setHelpful] = useState(review.helpful_count);
  const [voted, setVoted] = useState(false);
  const [reported, setReported] = useState(false);
  const [reporting, setReporting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [photo, setPhoto] = useState<number | null>(null);

  const vote = async () => {
    if (voted || busy) return;
    setBusy(true);
    try {
      // A signed-out shopper votes under the guest id the cart uses (one vote per caller).
      await ensureGuestId(locale);
      const res = await markReviewHelpful(browserApi(locale), review.id);
      setHelpful(res.data.helpful_count);
      setVoted(true);
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };

  const report = async (reason: ReviewReportReason) => {
    setBusy(true);
    try {
      await ensureGuestId(locale);
      await reportReview(browserApi(locale), review.id, reason);
      setReported(true);
      setReporting(false);
      toast.success(t("reviews.report.thanks"));
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <article className="review" aria-labelledby={titleId} data-review={review.id}>
      <p className="review__rating">
        <Stars average={review.rating} />
        <span className="visually-hidden">{t("reviews.item.rating", { stars: review.rating })}</span>
      </p>
      <h3 id={titleId} className="review__title" dir="auto" lang={review.lang}>
        {review.title}
      </h3>
      <p className="review__meta">
        <bdi className="review__author">{review.author_name}</bdi>
        {review.verified_buyer ? <span className="review__verified">{t("reviews.item.verified")}</span> : null}
        <time dateTime={review.created_at}>{shopLongDay(review.created_at, locale)}</time>
        {review.edited ? <span className="muted">{t("reviews.item.edited")}</span> : null}
      </p>
      <p className="review__text" dir="auto" lang={review.lang}>
        {review.body}
      </p>
      {review.photos.length ? (
        <ul className="review__photos" aria-label={t("reviews.photos.label")}>
          {review.photos.map((p, i) => (
            <li key={p.url}>
              <button
                type="button"
                className="review__photo"
                aria-label={t("reviews.photos.open", { n: i + 1, author: review.author_name })}
                onClick={() => setPhoto(i)}
              >
                <img src={p.thumb} alt="" width={96} height={96} loading="lazy" decoding="async" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {review.reply ? (
        <div className="review__reply">
          <p className="review__reply-head">
            <strong>{t("reviews.item.reply")}</strong>{" "}
            <time className="muted" dateTime={review.reply.created_at}>
              {shopLongDay(review.reply.created_at, locale)}
            </time>
          </p>
          <p className="review__text" dir="auto">
            {review.reply.text}
          </p>
        </div>
      ) : null}
      <div className="review__actions">
        <span className="muted">{t("reviews.item.wasHelpful")}</span>
        <button type="button" className="button review__helpful" aria-pressed={voted} disabled={busy} onClick={vote}>
          {t("reviews.item.helpful", { count: helpful })}
        </button>
        {reported ? (
          <span className="muted">{t("reviews.report.done")}</span>
        ) : (
          <button type="button" className="review__report" onClick={() => setReporting(true)}>
            {t("reviews.report.link")}
          </button>
        )}
      </div>
      <ReportDialog open={reporting} busy={busy} onSubmit={report} onClose={() => setReporting(false)} />
      {review.photos.length ? (
        <PhotoViewer
          photos={review.photos}
          index={photo}
          author={review.author_name}
          onIndex={setPhoto}
          onClose={() => setPhoto(null)}
        />
      ) : null}
    </article>
  );
}

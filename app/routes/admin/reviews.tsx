import { useId, useState, type FormEvent } from "react";
import { Link } from "../../lib/link";
import type { Route } from "./+types/reviews";
import { roleAtLeast } from "../../../contract/console";
import type { ConsoleReview, ReviewLang } from "../../../contract/reviews";
import { DataTable, type Column } from "../../components/console/DataTable";
import { FormDialog } from "../../components/console/FormDialog";
import { Stylesheet } from "../../components/Stylesheet";
import { useRouteAction, type ActionFields } from "../../components/form/useRouteAction";
import { answer, intentOf, textOf, unknownIntent } from "../../lib/actions";
import { browserApi } from "../../lib/api/browser";
import {
  approveReview,
  dismissReviewReports,
  listConsoleReviews,
  rejectReview,
  replyToReview,
  REVIEW_TABS,
  type ReviewTab,
} from "../../lib/api/console-reviews";
import { consoleLoad, consoleLocale, consoleMeta } from "../../lib/console";
import { consoleFormat } from "../../lib/console-format";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";
import consoleReviewsCss from "../../styles/console-reviews.css?url";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.reviews");

const tabOf = (value: string | null): ReviewTab =>
  (REVIEW_TABS as readonly string[]).includes(value ?? "") ? (value as ReviewTab) : "pending";

export async function loader(args: Route.LoaderArgs) {
  const url = args.url;
  const tab = tabOf(url.searchParams.get("status"));
  const page = Number(url.searchParams.get("page")) || undefined;
  return consoleLoad(args, async (api, me) => {
    const list = await listConsoleReviews(api, tab, page);
    return {
      tab,
      rows: list.data,
      counts: list.counts,
      meta: { ...list.meta, sort: "created", dir: "desc" as const },
      // Support reads the queue; managers and owners act on it (the API checks again).
      canModerate: roleAtLeast(me.role, "manager"),
    };
  });
}

const INTENTS = ["approve", "reject", "reply", "dismiss"] as const;

/** Staff's moderation steps, one intent each; the backend checks the role and audits each. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = consoleLocale(params);
  const form = await request.formData();
  const intent = intentOf(form, INTENTS);
  const api = browserApi(locale);
  const id = Number(textOf(form, "id"));
  switch (intent) {
    case "approve":
      return answer(locale, intent, () => approveReview(api, id));
    case "reject":
      return answer(locale, intent, () => rejectReview(api, id, textOf(form, "reason").trim()));
    case "reply":
      return answer(locale, intent, () =>
        replyToReview(api, id, textOf(form, "text").trim(), textOf(form, "lang") === "ar" ? "ar" : "en"),
      );
    case "dismiss":
      return answer(locale, intent, () => dismissReviewReports(api, id));
    default:
      return unknownIntent(locale);
  }
}

/**
 * Product reviews (staff): the pending queue, the reported reviews, the published and the
 * rejected, each review with what the screening rule found highlighted; approve, reject (with the
 * reason the author is told), reply for the store, or dismiss a review's reports.
 */
export default function ConsoleReviews({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const f = consoleFormat(locale);
  const { tab, counts, canModerate } = loaderData;
  const [rejecting, setRejecting] = useState<ConsoleReview | null>(null);
  const [replying, setReplying] = useState<ConsoleReview | null>(null);
  const steps = useRouteAction();
  const mutate = (intent: (typeof INTENTS)[number], fields: ActionFields, success: string, onDone?: () => void) =>
    void steps.submit(intent, fields, {
      loading: t("console.saving"),
      success: () => success,
      toastRefusal: true,
      onDone,
    });
  const productName = (r: ConsoleReview) => (locale === "ar" ? r.product.name_ar : r.product.name_en) || r.product.slug;

  const columns: Column<ConsoleReview>[] = [
    {
      label: t("console.reviews.columns.review"),
      cell: (r) => <ReviewCell review={r} />,
    },
    {
      label: t("console.reviews.columns.product"),
      cell: (r) => (
        <Link to={`/${locale}/product-details/${encodeURIComponent(r.product.slug)}#reviews`}>
          <bdi>{productName(r)}</bdi>
        </Link>
      ),
    },
    {
      label: t("console.reviews.columns.author"),
      cell: (r) => (
        <span className="console-reviews__author">
          <bdi>{r.author.name}</bdi>
          {r.author.email ? (
            <bdi dir="ltr" className="console-hint">
              {r.author.email}
            </bdi>
          ) : null}
          {r.order_number ? (
            <Link to={to(`/admin/orders/${encodeURIComponent(r.order_number)}`)}>
              {t("console.reviews.order", { number: r.order_number })}
            </Link>
          ) : null}
        </span>
      ),
    },
    { label: t("console.reviews.columns.date"), cell: (r) => f.moment(r.created_at) },
    {
      label: t("console.reviews.columns.reports"),
      cell: (r) =>
        r.reports.length ? (
          <ul className="console-reviews__reports">
            {r.reports.map((report, i) => (
              <li key={`${report.created_at}-${i}`}>
                <span className="console-badge console-badge--warn">
                  {t(`console.reviews.reasons.${report.reason}`)}
                </span>{" "}
                <span className="console-hint">{f.day(report.created_at)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <span className="console-hint">{t("console.reviews.noReports")}</span>
        ),
    },
    {
      label: t("console.table.actions"),
      cell: (r) => {
        if (!canModerate) return <span className="console-hint">{t("console.reviews.managersAct")}</span>;
        // Each button's name starts with its visible words, then says which review (WCAG 2.5.3).
        const title = r.title || productName(r);
        const on = (action: string) => t("console.reviews.actionOn", { action, title });
        return (
          <span className="console-reviews__actions">
            {r.status !== "published" ? (
              <button
                type="button"
                className="button"
                aria-label={on(t("console.reviews.approve"))}
                onClick={() => mutate("approve", { id: r.id }, t("console.reviews.approved"))}
              >
                {t("console.reviews.approve")}
              </button>
            ) : null}
            {r.status !== "rejected" ? (
              <button
                type="button"
                className="button button--danger"
                aria-label={on(t("console.reviews.reject"))}
                onClick={() => setRejecting(r)}
              >
                {t("console.reviews.reject")}
              </button>
            ) : null}
            <button
              type="button"
              className="button button--ghost"
              aria-label={on(t(r.reply ? "console.reviews.editReply" : "console.reviews.reply"))}
              onClick={() => setReplying(r)}
            >
              {t(r.reply ? "console.reviews.editReply" : "console.reviews.reply")}
            </button>
            {r.reports.length ? (
              <button
                type="button"
                className="button button--ghost"
                aria-label={on(t("console.reviews.dismiss"))}
                onClick={() => mutate("dismiss", { id: r.id }, t("console.reviews.dismissed"))}
              >
                {t("console.reviews.dismiss")}
              </button>
            ) : null}
          </span>
        );
      },
    },
  ];

  return (
    <>
      <Stylesheet href={consoleReviewsCss} />
      <h1>{t("console.nav.reviews")}</h1>
      <p className="console-hint">{t("console.reviews.intro")}</p>
      <nav className="console-reviews__tabs" aria-label={t("console.reviews.tabsLabel")}>
        <ul>
          {REVIEW_TABS.map((s) => {
            const count = s === "pending" ? counts.pending : s === "reported" ? counts.reported : null;
            return (
              <li key={s}>
                <Link
                  to={s === "pending" ? to("/admin/reviews") : to(`/admin/reviews?status=${s}`)}
                  aria-current={s === tab ? "page" : undefined}
                  preventScrollReset
                  data-tab={s}
                >
                  {t(`console.reviews.tabs.${s}`)}
                  {count !== null ? (
                    <span className={`console-badge${count > 0 ? " console-badge--warn" : ""}`}>{f.number(count)}</span>
                  ) : null}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <DataTable
        caption={t(`console.reviews.tabs.${tab}`)}
        columns={columns}
        rows={loaderData.rows}
        meta={loaderData.meta}
        rowKey={(r) => r.id}
        empty={t(`console.reviews.empty.${tab}`)}
      />
      <RejectDialog
        review={rejecting}
        onCancel={() => setRejecting(null)}
        onReject={(review, reason) =>
          mutate("reject", { id: review.id, reason }, t("console.reviews.rejected"), () => setRejecting(null))
        }
      />
      <ReplyDialog
        review={replying}
        onCancel={() => setReplying(null)}
        onReply={(review, text, lang) =>
          mutate(
            "reply",
            { id: review.id, text, lang },
            t(text ? "console.reviews.replied" : "console.reviews.replyRemoved"),
            () => setReplying(null),
          )
        }
      />
    </>
  );
}

/** What the screening rule names; a finding the console does not know yet shows as it came. */
const KNOWN_FLAGS = new Set(["link", "email", "phone", "word"]);

/** The review as its author wrote it (as text), with the screening rule's findings and its state. */
function ReviewCell({ review }: { review: ConsoleReview }) {
  const t = useT();
  const locale = useLocale();
  const f = consoleFormat(locale);
  return (
    <div className="console-reviews__review" data-review={review.id}>
      <p className="console-reviews__stars">
        <span aria-hidden="true">{"★".repeat(review.rating) + "☆".repeat(5 - review.rating)}</span>
        <span className="visually-hidden">{t("console.reviews.stars", { stars: review.rating })}</span>{" "}
        <span
          className={`console-badge console-badge--${review.status === "published" ? "ok" : review.status === "rejected" ? "danger" : "warn"}`}
        >
          {t(`console.reviews.statuses.${review.status}`)}
        </span>
      </p>
      {review.flags.length ? (
        <p className="console-reviews__flags">
          <span className="console-hint">{t("console.reviews.flagged")}</span>{" "}
          {review.flags.map((flag) => (
            <span key={flag} className="console-badge console-badge--danger" data-flag={flag}>
              {KNOWN_FLAGS.has(flag) ? t(`console.reviews.flags.${flag}`) : flag}
            </span>
          ))}
        </p>
      ) : null}
      <p className="console-reviews__title" dir="auto" lang={review.lang}>
        <strong>{review.title}</strong>
      </p>
      <p className="console-reviews__body" dir="auto" lang={review.lang}>
        {review.body}
      </p>
      {review.photos.length ? (
        <ul className="console-reviews__photos" aria-label={t("console.reviews.photos")}>
          {review.photos.map((photo, i) => (
            <li key={photo.url}>
              <a
                href={photo.url}
                target="_blank"
                rel="noreferrer"
                aria-label={t("console.reviews.photoN", { n: i + 1 })}
              >
                <img src={photo.thumb} alt="" width={72} height={72} loading="lazy" />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {review.status === "rejected" && review.reject_reason ? (
        <p className="console-hint">{t("console.reviews.rejectedBecause", { reason: review.reject_reason })}</p>
      ) : null}
      {review.reply ? (
        <div className="console-reviews__reply">
          <p className="console-hint">{t("console.reviews.replyOn", { date: f.day(review.reply.created_at) })}</p>
          <p dir="auto">{review.reply.text}</p>
        </div>
      ) : null}
      <p className="console-hint">{t("console.reviews.helpful", { count: f.number(review.helpful_count) })}</p>
    </div>
  );
}

/** Rejecting asks why: the author is told the reason in their message. */
function RejectDialog({
  review,
  onCancel,
  onReject,
}: {
  review: ConsoleReview | null;
  onCancel: () => void;
  onReject: (review: ConsoleReview, reason: string) => void;
}) {
  const t = useT();
  const id = useId();
  const [reason, setReason] = useState("");
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!review) return;
    if (!reason.trim()) {
      setMissing(true);
      return;
    }
    onReject(review, reason.trim());
  };
  return (
    <FormDialog
      open={review !== null}
      title={t("console.reviews.rejectTitle")}
      onClose={() => {
        setReason("");
        setMissing(false);
        onCancel();
      }}
    >
      <form className="form" onSubmit={submit} noValidate>
        <p className="console-hint">{t("console.reviews.rejectHint")}</p>
        <div className="field" data-invalid={missing ? "true" : undefined}>
          <label htmlFor={`${id}-reason`}>{t("console.reviews.rejectReason")}</label>
          <textarea
            id={`${id}-reason`}
            name="reason"
            rows={4}
            maxLength={500}
            dir="auto"
            required
            value={reason}
            aria-invalid={missing || undefined}
            aria-describedby={missing ? `${id}-error` : undefined}
            onChange={(e) => {
              setReason(e.target.value);
              setMissing(false);
            }}
          />
          {missing ? (
            <p id={`${id}-error`} className="field__error">
              {t("console.reviews.reasonRequired")}
            </p>
          ) : null}
        </div>
        <div className="console-dialog__actions">
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {t("console.actions.cancel")}
          </button>
          <button type="submit" className="button button--danger">
            {t("console.reviews.reject")}
          </button>
        </div>
      </form>
    </FormDialog>
  );
}

/** The store's public reply, in the language it is written in; emptied, it is removed. */
function ReplyDialog({
  review,
  onCancel,
  onReply,
}: {
  review: ConsoleReview | null;
  onCancel: () => void;
  onReply: (review: ConsoleReview, text: string, lang: ReviewLang) => void;
}) {
  const t = useT();
  const id = useId();
  return (
    <FormDialog open={review !== null} title={t("console.reviews.replyTitle")} onClose={onCancel}>
      {review ? (
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            onReply(review, String(data.get("text") ?? "").trim(), data.get("lang") === "ar" ? "ar" : "en");
          }}
        >
          <p className="console-hint">{t("console.reviews.replyHint")}</p>
          <div className="field">
            <label htmlFor={`${id}-text`}>{t("console.reviews.replyText")}</label>
            <textarea
              id={`${id}-text`}
              name="text"
              rows={5}
              maxLength={2000}
              dir="auto"
              defaultValue={review.reply?.text ?? ""}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-lang`}>{t("console.reviews.replyLang")}</label>
            <select id={`${id}-lang`} name="lang" defaultValue={review.lang}>
              <option value="en">{t("console.reviews.langs.en")}</option>
              <option value="ar">{t("console.reviews.langs.ar")}</option>
            </select>
          </div>
          <div className="console-dialog__actions">
            {review.reply ? (
              <button type="button" className="button button--danger" onClick={() => onReply(review, "", review.lang)}>
                {t("console.reviews.removeReply")}
              </button>
            ) : null}
            <button type="button" className="button button--ghost" onClick={onCancel}>
              {t("console.actions.cancel")}
            </button>
            <button type="submit" className="button">
              {t("console.reviews.saveReply")}
            </button>
          </div>
        </form>
      ) : null}
    </FormDialog>
  );
}

import { useEffect, useRef, useState } from "react";
import type { PublicQuestion, QuestionsPage } from "../../../contract/questions";
import { ApiError } from "../../lib/api/errors";
import { browserApi } from "../../lib/api/browser";
import { getProductQuestions, getQuestionEligibility } from "../../lib/api/questions";
import { Link } from "../../lib/link";
import { formatDate } from "../../lib/orders";
import { readStored } from "../../lib/tab-storage";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";
import { Stylesheet } from "../Stylesheet";
import { AnswerForm, AskForm } from "./QuestionForms";
import questionsCss from "../../styles/questions.css?url";

type Loaded = { state: "loading" } | { state: "failed" } | { state: "ready"; page: QuestionsPage };

/**
 * A product's questions and answers, loaded in the browser (components/questions/QuestionsSlot.tsx
 * says when): the published questions, newest first, a page at a time, each with its answers
 * (the store's marked "Store", buyers' "Verified buyer"); the form to ask for a signed-in shopper
 * (a sign-in link otherwise); and, when the store lets buyers answer, an answer form for a buyer of
 * the product. Every text is rendered as text, in its own language and direction.
 */
export function QuestionsSection({ slug }: { slug: string }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const [page, setPage] = useState(1);
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  // Rendered in the browser only (the slot loads it after hydration): the tab's token says who is signed in.
  const [signedIn] = useState(() => readStored("token") !== null);
  const [canAnswer, setCanAnswer] = useState(false);
  const list = useRef<HTMLDivElement>(null);
  const turned = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    getProductQuestions(browserApi(locale), slug, page, controller.signal)
      .then((res) => {
        setLoaded({ state: "ready", page: res.data });
        // After the shopper turned a page, the reader starts at the new page's questions.
        if (turned.current) list.current?.focus();
      })
      .catch(() => {
        if (!controller.signal.aborted) setLoaded({ state: "failed" });
      });
    return () => controller.abort();
  }, [slug, page, locale, attempt]);

  const buyersAnswer = loaded.state === "ready" && loaded.page.buyers_answer;
  useEffect(() => {
    if (!signedIn || !buyersAnswer) return;
    const controller = new AbortController();
    getQuestionEligibility(browserApi(locale), slug, controller.signal)
      .then((res) => setCanAnswer(res.data.can_answer))
      // Not allowed, or signed out meanwhile: no answer forms.
      .catch((error: unknown) => {
        if (!controller.signal.aborted && error instanceof ApiError) setCanAnswer(false);
      });
    return () => controller.abort();
  }, [signedIn, buyersAnswer, slug, locale]);

  const turn = (to: number) => {
    turned.current = true;
    setLoaded({ state: "loading" });
    setPage(to);
  };
  const retry = () => {
    setLoaded({ state: "loading" });
    setAttempt((n) => n + 1);
  };

  const signInPath = `${to("/auth/login")}?redirect=${encodeURIComponent(
    `${to(`/product-details/${encodeURIComponent(slug)}`)}#questions`,
  )}`;

  return (
    <div className="questions__body">
      <Stylesheet href={questionsCss} />
      {signedIn ? (
        <AskForm slug={slug} />
      ) : (
        <p className="questions__sign-in">
          <Link to={signInPath} className="button">
            {t("questions.signIn")}
          </Link>
        </p>
      )}
      {loaded.state === "failed" ? (
        <div className="notice notice--danger" role="alert">
          <p>{t("questions.failed")}</p>
          <button type="button" className="button" onClick={retry}>
            {t("questions.retry")}
          </button>
        </div>
      ) : loaded.state === "loading" ? (
        <p className="muted questions__loading" aria-busy="true">
          {t("questions.loading")}
        </p>
      ) : (
        <div
          ref={list}
          className="questions__list"
          tabIndex={-1}
          aria-label={t("questions.listLabel", { page: loaded.page.meta.page, pages: loaded.page.meta.last_page })}
          role="region"
        >
          {loaded.page.data.length === 0 ? (
            <p className="muted">{t("questions.none")}</p>
          ) : (
            <ol className="questions__items">
              {loaded.page.data.map((q) => (
                <QuestionItem key={q.id} question={q} canAnswer={canAnswer} />
              ))}
            </ol>
          )}
          {loaded.page.meta.last_page > 1 ? (
            <nav className="questions__pages" aria-label={t("questions.pagesLabel")}>
              <button
                type="button"
                className="button button--ghost"
                disabled={page <= 1}
                onClick={() => turn(page - 1)}
              >
                {t("questions.newer")}
              </button>
              <span className="muted">
                {t("questions.page", { page: loaded.page.meta.page, pages: loaded.page.meta.last_page })}
              </span>
              <button
                type="button"
                className="button button--ghost"
                disabled={page >= loaded.page.meta.last_page}
                onClick={() => turn(page + 1)}
              >
                {t("questions.older")}
              </button>
            </nav>
          ) : null}
        </div>
      )}
    </div>
  );
}

function QuestionItem({ question: q, canAnswer }: { question: PublicQuestion; canAnswer: boolean }) {
  const t = useT();
  const locale = useLocale();
  const titleId = `question-${q.id}`;
  return (
    <li className="questions__item">
      <article aria-labelledby={titleId}>
        <p className="questions__question" id={titleId}>
          <span className="questions__mark" aria-hidden="true">
            {t("questions.q")}
          </span>
          <span className="visually-hidden">{t("questions.questionLabel")} </span>
          <span lang={q.lang} dir={q.lang === "ar" ? "rtl" : "ltr"} className="questions__text">
            {q.text}
          </span>
        </p>
        <p className="muted questions__meta">{t("questions.askedOn", { date: formatDate(q.created_at, locale) })}</p>
        {q.answers.length ? (
          <ul className="questions__answers" aria-label={t("questions.answersLabel")}>
            {q.answers.map((a) => (
              <li key={a.id} className="questions__answer">
                <p>
                  <span className="questions__mark questions__mark--answer" aria-hidden="true">
                    {t("questions.a")}
                  </span>
                  <span lang={a.lang} dir={a.lang === "ar" ? "rtl" : "ltr"} className="questions__text">
                    {a.text}
                  </span>
                </p>
                <p className="muted questions__meta">
                  {a.by_staff ? (
                    <span className="questions__badge questions__badge--store">{t("questions.store")}</span>
                  ) : a.verified_buyer ? (
                    <span className="questions__badge">{t("questions.verifiedBuyer")}</span>
                  ) : null}{" "}
                  {formatDate(a.created_at, locale)}
                </p>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted questions__unanswered">{t("questions.noAnswer")}</p>
        )}
        {canAnswer ? <AnswerForm questionId={q.id} /> : null}
      </article>
    </li>
  );
}

import { reset, useForm } from "@modular-forms/react";
import { useMemo, useState } from "react";
import type { Route } from "./+types/questions";
import {
  ANSWER_TEXT_MAX,
  ANSWER_TEXT_MIN,
  QUESTION_TABS,
  REJECT_REASON_MAX,
  type ConsoleAnswer,
  type ConsoleQuestion,
  type QuestionStatus,
  type QuestionTab,
  type ScreeningFlag,
} from "../../../contract/questions";
import { FormDialog } from "../../components/console/FormDialog";
import { Pagination } from "../../components/Pagination";
import { Stylesheet } from "../../components/Stylesheet";
import { FormErrors } from "../../components/form/FormErrors";
import { SubmitButton } from "../../components/form/SubmitButton";
import { TextField } from "../../components/form/TextField";
import { useRouteAction } from "../../components/form/useRouteAction";
import { answer, intentOf, textOf, unknownIntent } from "../../lib/actions";
import { browserApi } from "../../lib/api/browser";
import {
  answerAsStaff,
  approveAnswer,
  approveQuestion,
  listQuestions,
  rejectAnswer,
  rejectQuestion,
} from "../../lib/api/console-questions";
import { consoleLoad, consoleLocale, consoleMeta } from "../../lib/console";
import { FORM_OPTIONS, formRules } from "../../lib/forms";
import { Link } from "../../lib/link";
import { formatDate } from "../../lib/orders";
import { useLocale, useT } from "../../lib/use-locale";
import questionsCss from "../../styles/console-questions.css?url";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.questions");

/** The tab and page the address asks for; anything else reads as the first page of the pending tab. */
function viewOf(request: Request): { tab: QuestionTab; page: number } {
  const params = new URL(request.url).searchParams;
  const tab = params.get("tab");
  const page = params.get("page") ?? "";
  return {
    tab: (QUESTION_TABS as readonly string[]).includes(tab ?? "") ? (tab as QuestionTab) : "pending",
    page: /^[1-9]\d{0,4}$/.test(page) ? Number(page) : 1,
  };
}

export async function loader(args: Route.LoaderArgs) {
  const { tab, page } = viewOf(args.request);
  return consoleLoad(args, async (api) => ({ tab, ...(await listQuestions(api, tab, page)).data }), {
    role: "manager",
  });
}

const INTENTS = ["approve", "reject", "remove", "answer"] as const;

/** A moderator's step on a question or an answer (`kind`), by its id; the backend checks each one. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = consoleLocale(params);
  const form = await request.formData();
  const intent = intentOf(form, INTENTS);
  const api = browserApi(locale);
  const id = Number(textOf(form, "id"));
  const onAnswer = textOf(form, "kind") === "answer";
  if (!Number.isSafeInteger(id) || id < 1) return unknownIntent(locale);
  switch (intent) {
    case "approve":
      return answer(locale, intent, () => (onAnswer ? approveAnswer(api, id) : approveQuestion(api, id)));
    case "reject":
    case "remove": {
      const reason = textOf(form, "reason");
      return answer(locale, intent, () =>
        onAnswer ? rejectAnswer(api, id, intent, reason) : rejectQuestion(api, id, intent, reason),
      );
    }
    case "answer":
      return answer(locale, intent, () => answerAsStaff(api, id, textOf(form, "text")));
    default:
      return unknownIntent(locale);
  }
}

type Kind = "question" | "answer";
/** The dialog open now: a reason for a rejection or a removal, or staff's answer to a question. */
type Dialog =
  | { type: "reason"; kind: Kind; id: number; action: "reject" | "remove"; quote: string }
  | { type: "answer"; id: number; quote: string }
  | null;

const BADGE: Record<QuestionStatus, string> = { pending: "warn", published: "ok", rejected: "danger" };

/**
 * Questions and answers (managers and owners): the tabs Pending, Published and Rejected with their
 * counts; each question with its answers, what the screening found, and the steps its state allows
 * (approve, reject with a reason, answer as the store, remove). Each step goes to the route's action
 * and is audited by the backend.
 */
export default function ConsoleQuestions({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const { tab, data, counts, meta } = loaderData;
  const rules = useMemo(() => formRules(t), [t]);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [reasonForm, reasonFields] = useForm<{ reason: string }>({ ...FORM_OPTIONS, initialValues: { reason: "" } });
  const [answerForm, answerFields] = useForm<{ text: string }>({ ...FORM_OPTIONS, initialValues: { text: "" } });
  const steps = useRouteAction();
  const rejecting = useRouteAction(reasonForm);
  const answering = useRouteAction(answerForm);
  const reasonLabel = t("console.questions.reason");
  const answerLabel = t("console.questions.answerLabel");

  const approve = (kind: Kind, id: number) =>
    void steps.submit(
      "approve",
      { kind, id },
      { loading: t("console.saving"), success: () => t("console.questions.done.approve"), toastRefusal: true },
    );

  const openReason = (kind: Kind, id: number, action: "reject" | "remove", quote: string) => {
    rejecting.clear();
    reset(reasonForm, { initialValues: { reason: "" } });
    setDialog({ type: "reason", kind, id, action, quote });
  };
  const openAnswer = (id: number, quote: string) => {
    answering.clear();
    reset(answerForm, { initialValues: { text: "" } });
    setDialog({ type: "answer", id, quote });
  };

  const submitReason = (values: { reason: string }) => {
    if (dialog?.type !== "reason") return;
    return rejecting.submit(
      dialog.action,
      { kind: dialog.kind, id: dialog.id, reason: values.reason.trim() },
      {
        loading: t("console.saving"),
        success: () => t(`console.questions.done.${dialog.action}`),
        onDone: () => setDialog(null),
      },
    );
  };
  const submitAnswer = (values: { text: string }) => {
    if (dialog?.type !== "answer") return;
    return answering.submit(
      "answer",
      { id: dialog.id, text: values.text.trim() },
      {
        loading: t("console.saving"),
        success: () => t("console.questions.done.answer"),
        onDone: () => setDialog(null),
      },
    );
  };

  const pageHref = (page: number) => `?tab=${tab}${page > 1 ? `&page=${page}` : ""}`;

  return (
    <>
      <Stylesheet href={questionsCss} />
      <h1>{t("console.questions.title")}</h1>
      <p className="console-hint">{t("console.questions.intro")}</p>
      <nav className="console-question-tabs" aria-label={t("console.questions.tabsLabel")}>
        <ul>
          {QUESTION_TABS.map((key) => (
            <li key={key}>
              <Link to={`?tab=${key}`} aria-current={key === tab ? "page" : undefined} preventScrollReset>
                {t(`console.questions.tabs.${key}`)} <span className="console-badge">{counts[key]}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <section className="console-panel" aria-labelledby="questions-list-title">
        <h2 id="questions-list-title" className="visually-hidden">
          {t(`console.questions.tabs.${tab}`)}
        </h2>
        {data.length === 0 ? (
          <p className="console-hint">{t(`console.questions.empty.${tab}`)}</p>
        ) : (
          <ol className="console-questions">
            {data.map((q) => (
              <QuestionCard
                key={q.id}
                question={q}
                busy={steps.busy}
                onApprove={approve}
                onReason={openReason}
                onAnswer={openAnswer}
              />
            ))}
          </ol>
        )}
        <Pagination page={meta.page} last={meta.last_page} href={pageHref} />
      </section>

      <FormDialog
        open={dialog?.type === "reason"}
        title={dialog?.type === "reason" ? t(`console.questions.reasonTitle.${dialog.action}.${dialog.kind}`) : ""}
        onClose={() => setDialog(null)}
      >
        {dialog?.type === "reason" ? (
          <reasonFields.Form className="form" onSubmit={submitReason} shouldFocus>
            <blockquote className="console-question__quote">
              <bdi>{dialog.quote}</bdi>
            </blockquote>
            <FormErrors
              form={reasonForm}
              messages={rules.messages}
              serverErrors={rejecting.serverErrors}
              serverMessage={rejecting.serverMessage}
              labels={{ reason: reasonLabel }}
              idPrefix="question-reason"
            />
            <reasonFields.Field
              name="reason"
              validate={[rules.required(reasonLabel), rules.maxLength(reasonLabel, REJECT_REASON_MAX)]}
            >
              {(field, props) => (
                <TextField
                  form={reasonForm}
                  field={field}
                  props={props}
                  label={reasonLabel}
                  hint={t("console.questions.reasonHint")}
                  idPrefix="question-reason"
                  multiline
                  rows={3}
                  dir="auto"
                  required
                />
              )}
            </reasonFields.Field>
            <div className="console-dialog__actions">
              <button type="button" className="button button--ghost" onClick={() => setDialog(null)}>
                {t("console.actions.cancel")}
              </button>
              <SubmitButton className="button button--danger" disabled={rejecting.busy}>
                {t(`console.questions.actions.${dialog.action}`)}
              </SubmitButton>
            </div>
          </reasonFields.Form>
        ) : null}
      </FormDialog>

      <FormDialog
        open={dialog?.type === "answer"}
        title={t("console.questions.answerTitle")}
        onClose={() => setDialog(null)}
      >
        {dialog?.type === "answer" ? (
          <answerFields.Form className="form" onSubmit={submitAnswer} shouldFocus>
            <blockquote className="console-question__quote">
              <bdi>{dialog.quote}</bdi>
            </blockquote>
            <FormErrors
              form={answerForm}
              messages={rules.messages}
              serverErrors={answering.serverErrors}
              serverMessage={answering.serverMessage}
              labels={{ text: answerLabel }}
              idPrefix="question-answer"
            />
            <answerFields.Field
              name="text"
              validate={[
                rules.required(answerLabel),
                rules.minLength(answerLabel, ANSWER_TEXT_MIN),
                rules.maxLength(answerLabel, ANSWER_TEXT_MAX),
              ]}
            >
              {(field, props) => (
                <TextField
                  form={answerForm}
                  field={field}
                  props={props}
                  label={answerLabel}
                  hint={t("console.questions.answerHint")}
                  idPrefix="question-answer"
                  multiline
                  rows={5}
                  // Staff answer in the asker's language, whichever the console is in.
                  dir="auto"
                  required
                />
              )}
            </answerFields.Field>
            <div className="console-dialog__actions">
              <button type="button" className="button button--ghost" onClick={() => setDialog(null)}>
                {t("console.actions.cancel")}
              </button>
              <SubmitButton disabled={answering.busy}>{t("console.questions.answerSubmit")}</SubmitButton>
            </div>
          </answerFields.Form>
        ) : null}
      </FormDialog>
    </>
  );
}

function Flags({ flags }: { flags: ScreeningFlag[] }) {
  const t = useT();
  if (!flags.length) return null;
  return (
    <span className="console-question__flags">
      {flags.map((f) => (
        <span key={f} className="console-badge console-badge--warn">
          {t(`console.questions.flags.${f}`)}
        </span>
      ))}
    </span>
  );
}

function Status({ status }: { status: QuestionStatus }) {
  const t = useT();
  return (
    <span className={`console-badge console-badge--${BADGE[status]}`}>{t(`console.questions.statuses.${status}`)}</span>
  );
}

function QuestionCard({
  question: q,
  busy,
  onApprove,
  onReason,
  onAnswer,
}: {
  question: ConsoleQuestion;
  busy: boolean;
  onApprove: (kind: Kind, id: number) => void;
  onReason: (kind: Kind, id: number, action: "reject" | "remove", quote: string) => void;
  onAnswer: (id: number, quote: string) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const titleId = `console-question-${q.id}`;
  return (
    <li className="console-card console-question">
      <article aria-labelledby={titleId}>
        <header className="console-card__title">
          <a
            id={titleId}
            href={`/${locale}/product-details/${encodeURIComponent(q.product.slug)}#questions`}
            target="_blank"
            rel="noreferrer"
          >
            <bdi>{q.product.name}</bdi>
          </a>
          <Status status={q.status} />
          <Flags flags={q.flags} />
        </header>
        <p className="console-question__text" lang={q.lang} dir={q.lang === "ar" ? "rtl" : "ltr"}>
          {q.text}
        </p>
        <p className="console-hint">
          {t("console.questions.askedBy", {
            name: q.asker ?? t("console.questions.deletedAccount"),
            date: formatDate(q.created_at, locale, true),
            lang: t(`console.questions.langs.${q.asker_lang}`),
          })}
        </p>
        {q.reject_reason ? (
          <p className="console-hint">{t("console.questions.reasonWas", { reason: q.reject_reason })}</p>
        ) : null}
        <div className="console-actions" role="group" aria-label={t("console.questions.questionActions")}>
          {q.status !== "published" ? (
            <button type="button" className="button" disabled={busy} onClick={() => onApprove("question", q.id)}>
              {t("console.questions.actions.approve")}
            </button>
          ) : null}
          {q.status !== "rejected" ? (
            <button type="button" className="button button--ghost" onClick={() => onAnswer(q.id, q.text)}>
              {t("console.questions.actions.answer")}
            </button>
          ) : null}
          {q.status === "pending" ? (
            <button
              type="button"
              className="button button--danger"
              onClick={() => onReason("question", q.id, "reject", q.text)}
            >
              {t("console.questions.actions.reject")}
            </button>
          ) : null}
          {q.status === "published" ? (
            <button
              type="button"
              className="button button--danger"
              onClick={() => onReason("question", q.id, "remove", q.text)}
            >
              {t("console.questions.actions.remove")}
            </button>
          ) : null}
        </div>
        {q.answers.length ? (
          <ul className="console-question__answers" aria-label={t("console.questions.answers")}>
            {q.answers.map((a) => (
              <AnswerItem key={a.id} answer={a} busy={busy} onApprove={onApprove} onReason={onReason} />
            ))}
          </ul>
        ) : (
          <p className="console-hint">{t("console.questions.noAnswers")}</p>
        )}
      </article>
    </li>
  );
}

function AnswerItem({
  answer: a,
  busy,
  onApprove,
  onReason,
}: {
  answer: ConsoleAnswer;
  busy: boolean;
  onApprove: (kind: Kind, id: number) => void;
  onReason: (kind: Kind, id: number, action: "reject" | "remove", quote: string) => void;
}) {
  const t = useT();
  const locale = useLocale();
  return (
    <li className="console-question__answer">
      <p className="console-card__title">
        <span className="console-badge">
          {a.by_staff ? t("console.questions.byStore") : t("console.questions.byBuyer")}
        </span>
        <Status status={a.status} />
        <Flags flags={a.flags} />
      </p>
      <p className="console-question__text" lang={a.lang} dir={a.lang === "ar" ? "rtl" : "ltr"}>
        {a.text}
      </p>
      <p className="console-hint">
        {t("console.questions.answeredBy", { name: a.author, date: formatDate(a.created_at, locale, true) })}
        {a.reject_reason ? <> · {t("console.questions.reasonWas", { reason: a.reject_reason })}</> : null}
      </p>
      <div className="console-actions" role="group" aria-label={t("console.questions.answerActions")}>
        {a.status !== "published" ? (
          <button type="button" className="button" disabled={busy} onClick={() => onApprove("answer", a.id)}>
            {t("console.questions.actions.approveAnswer")}
          </button>
        ) : null}
        {a.status === "pending" ? (
          <button
            type="button"
            className="button button--danger"
            onClick={() => onReason("answer", a.id, "reject", a.text)}
          >
            {t("console.questions.actions.rejectAnswer")}
          </button>
        ) : null}
        {a.status === "published" ? (
          <button
            type="button"
            className="button button--danger"
            onClick={() => onReason("answer", a.id, "remove", a.text)}
          >
            {t("console.questions.actions.removeAnswer")}
          </button>
        ) : null}
      </div>
    </li>
  );
}

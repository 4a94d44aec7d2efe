import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import {
  ANSWER_TEXT_MAX,
  ANSWER_TEXT_MIN,
  QUESTION_TEXT_MAX,
  QUESTION_TEXT_MIN,
  type SubmittedText,
} from "../../../contract/questions";
import type { Api, Envelope } from "../../lib/api/client";
import { ApiError } from "../../lib/api/errors";
import { browserApi } from "../../lib/api/browser";
import { answerQuestion, askQuestion } from "../../lib/api/questions";
import { formMessages } from "../../lib/forms";
import { useLocale, useT } from "../../lib/use-locale";

interface TextFormProps {
  /** The form's heading (the ask form has one; an answer form is named by its label). */
  title?: string;
  label: string;
  hint: string;
  submit: string;
  min: number;
  max: number;
  /** What the shopper reads once it was sent: it appears after moderation. */
  thanks: string;
  send: (api: Api, text: string) => Promise<Envelope<SubmittedText>>;
  onCancel?: () => void;
  /** Focus the field when the form appears. */
  focusOnShow?: boolean;
}

/**
 * One text to send, with the same bounds the backend checks (contract/questions.ts): the length
 * is checked on submit, a refusal (422, 403, 409, 429) is shown on the field or above the button,
 * and a sent text leaves a thank-you that says it waits for moderation.
 */
function TextForm({ title, label, hint, submit, min, max, thanks, send, onCancel, focusOnShow }: TextFormProps) {
  const t = useT();
  const locale = useLocale();
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [error, setError] = useState("");
  const [refusal, setRefusal] = useState("");
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const messages = formMessages(t);
  // An answer form opened by its button puts the reader in its field.
  useEffect(() => {
    if (focusOnShow) field.current?.focus();
  }, [focusOnShow]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = field.current?.value.trim() ?? "";
    const problem = !text
      ? messages.required(label)
      : text.length < min
        ? messages.minLength(label, min)
        : text.length > max
          ? messages.maxLength(label, max)
          : "";
    setRefusal("");
    setError(problem);
    if (problem) {
      field.current?.focus();
      return;
    }
    setBusy(true);
    try {
      await send(browserApi(locale), text);
      setSent(true);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 422 && failure.errors.text?.length) {
        setError(failure.errors.text[0]!);
        field.current?.focus();
      } else if (failure instanceof ApiError && failure.status === 401) setRefusal(t("questions.signedOut"));
      else setRefusal(failure instanceof ApiError && failure.message ? failure.message : t("questions.sendFailed"));
    } finally {
      setBusy(false);
    }
  };

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <form
      className="form questions__form"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={title ? `${id}-title` : undefined}
    >
      {title ? (
        <h3 id={`${id}-title`} className="questions__form-title">
          {title}
        </h3>
      ) : null}
      {/* Announced when it appears; kept in the page so a reader hears it. */}
      <div role="status" className="questions__status">
        {sent ? (
          <div className="notice notice--ok">
            <p>{thanks}</p>
          </div>
        ) : null}
      </div>
      {sent ? null : (
        <>
          <div className="field" data-invalid={error ? "true" : undefined}>
            <label htmlFor={`${id}-text`}>{label}</label>
            <div className="field__control">
              <textarea
                id={`${id}-text`}
                ref={field}
                name="text"
                rows={3}
                maxLength={max}
                // Each shopper writes in their own language, whatever the page's: the text takes its own direction.
                dir="auto"
                required
                aria-required="true"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${errorId} ${hintId}` : hintId}
              />
            </div>
            <p id={hintId} className="field__hint">
              {hint}
            </p>
            {error ? (
              <p id={errorId} className="field__error">
                {error}
              </p>
            ) : null}
          </div>
          {refusal ? (
            <div className="notice notice--danger" role="alert">
              <p>{refusal}</p>
            </div>
          ) : null}
          <div className="questions__actions">
            <button type="submit" className="button button--primary" disabled={busy} aria-disabled={busy}>
              {busy ? t("questions.sending") : submit}
            </button>
            {onCancel ? (
              <button type="button" className="button button--ghost" onClick={onCancel}>
                {t("questions.cancel")}
              </button>
            ) : null}
          </div>
        </>
      )}
    </form>
  );
}

/** The signed-in shopper's question about the product. */
export function AskForm({ slug }: { slug: string }) {
  const t = useT();
  return (
    <TextForm
      title={t("questions.askTitle")}
      label={t("questions.askLabel")}
      hint={t("questions.askHint", { min: QUESTION_TEXT_MIN, max: QUESTION_TEXT_MAX })}
      submit={t("questions.askSubmit")}
      min={QUESTION_TEXT_MIN}
      max={QUESTION_TEXT_MAX}
      thanks={t("questions.thanks")}
      send={(api, text) => askQuestion(api, slug, text)}
    />
  );
}

/** A buyer's answer to one question, behind a button so the list stays short. */
export function AnswerForm({ questionId }: { questionId: number }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  if (!open)
    return (
      <p className="questions__answer-open">
        <button
          type="button"
          ref={opener}
          className="button button--ghost"
          aria-describedby={`question-${questionId}`}
          onClick={() => setOpen(true)}
        >
          {t("questions.answer")}
        </button>
      </p>
    );
  return (
    <TextForm
      label={t("questions.answerLabel")}
      hint={t("questions.answerHint", { max: ANSWER_TEXT_MAX })}
      submit={t("questions.answerSubmit")}
      min={ANSWER_TEXT_MIN}
      max={ANSWER_TEXT_MAX}
      thanks={t("questions.answerThanks")}
      send={(api, text) => answerQuestion(api, questionId, text)}
      focusOnShow
      onCancel={() => {
        setOpen(false);
        // Back to the button that opened it, once it is there again.
        requestAnimationFrame(() => opener.current?.focus());
      }}
    />
  );
}

import type { FieldPath, FieldValues, FormStore, ResponseData } from "@modular-forms/react";
import { useSignals } from "@preact/signals-react/runtime";
import { lazy, Suspense, useEffect } from "react";
import type { FieldError } from "../../lib/api/errors";
import type { FormMessages } from "../../lib/forms";
import { whenIdle } from "../../client/idle";

/**
 * The summary only ever appears after a submit (never in the server's HTML, nor at hydration), so
 * its code loads once the browser is idle after the form hydrates (client/idle.ts) instead of with
 * the page.
 */
const loadSummary = () => import("./ErrorSummary");
const ErrorSummary = lazy(() => loadSummary().then((m) => ({ default: m.ErrorSummary })));

export interface FormErrorsProps<T extends FieldValues, R extends ResponseData> {
  form: FormStore<T, R>;
  messages: FormMessages;
  /** Errors from the last 422 answer, as `applyServerErrors` returned them. */
  serverErrors: FieldError[];
  /** The server's message for the last failed submit (a 422's message, a 400/403 text). */
  serverMessage?: string;
  labels?: Record<string, string>;
  idPrefix?: string;
}

/**
 * What a form says as a whole: after a submit that the client refused, the summary with
 * 'Sorry, not all fields are filled out correctly.'; after a 422, the summary with the server's
 * field errors; after another refusal, the server's message.
 */
export function FormErrors<T extends FieldValues, R extends ResponseData>({
  form,
  messages,
  serverErrors,
  serverMessage,
  labels,
  idPrefix,
}: FormErrorsProps<T, R>) {
  useSignals();
  useEffect(() => whenIdle(() => void loadSummary()), []);
  const submitCount = form.submitCount.value;
  if (serverErrors.length) {
    return (
      <Suspense fallback={null}>
        <ErrorSummary
          title={messages.summary}
          message={serverMessage}
          errors={serverErrors}
          labels={labels}
          idPrefix={idPrefix}
          focusKey={submitCount}
        />
      </Suspense>
    );
  }
  if (serverMessage) {
    return (
      <p className="form__alert" role="alert">
        {serverMessage}
      </p>
    );
  }
  if (!form.submitted.value || form.submitting.value || !form.invalid.value) return null;
  const fieldErrors: FieldError[] = [];
  for (const name of form.internal.fieldNames.value as FieldPath<T>[]) {
    const field = form.internal.fields[name];
    const message = field?.error.value;
    if (field?.active.value && message) fieldErrors.push({ type: name, message });
  }
  return (
    <Suspense fallback={null}>
      <ErrorSummary
        title={messages.summary}
        message={messages.formInvalid}
        errors={fieldErrors}
        labels={labels}
        idPrefix={idPrefix}
        focusKey={submitCount}
      />
    </Suspense>
  );
}

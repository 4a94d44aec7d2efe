import type { FieldValues, FormStore, ResponseData } from "@modular-forms/react";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "../../client/toast";
import type { ActionAnswer } from "../../lib/actions";
import { INTENT } from "../../lib/actions";
import type { FieldError } from "../../lib/api/errors";
import { applyServerErrors } from "../../lib/forms";

/** What a form submits to its route's action: text fields, and repeated ones as arrays. */
export type ActionFields = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;

type Done<V> = Extract<ActionAnswer<string, V>, { ok: true }>;

export interface SubmitOptions<V> {
  /** The loading toast's words while the action runs ("Saving…"). */
  loading: string;
  /** The success toast's words for what the action answered; none, and the loading toast just goes. */
  success?: (answer: Done<V>) => string | undefined;
  /** A success that carries a backend message is a step the backend refused (a provider's no): an error toast. */
  messageIsFailure?: boolean;
  /** A step with no form of its own: a refusal (400/403/422) is toasted with its field messages instead. */
  toastRefusal?: boolean;
  /** Runs once the action answered success (close the dialog, move on). */
  onDone?: (answer: Done<V>) => void;
  /** Runs once the action answered a refusal, after it was shown. */
  onRefused?: () => void;
}

function formDataOf(intent: string, fields: ActionFields): FormData {
  const data = new FormData();
  data.set(INTENT, intent);
  for (const [name, value] of Object.entries(fields)) {
    if (value === null || value === undefined || value === false) continue;
    if (Array.isArray(value)) for (const item of value as readonly (string | number)[]) data.append(name, String(item));
    else data.set(name, value === true ? "1" : String(value));
  }
  return data;
}

/**
 * A form (or a button) that runs one of its route's `clientAction` intents through a fetcher: React
 * Router keeps the pending state (`busy`) and revalidates the page's loaders afterwards. What the
 * action answers is shown the one way failures are shown (spec §8): a loading toast replaced by the
 * success one; a 422 put onto the form's fields and its summary; a 400/403 message above the form;
 * any other failure a toast. A 401 or 404 never comes back: the action redirected.
 */
export function useRouteAction<T extends FieldValues = FieldValues, R extends ResponseData = undefined>(
  form?: FormStore<T, R>,
) {
  const fetcher = useFetcher<ActionAnswer>();
  const pending = useRef<{ toast: string | number; options: SubmitOptions<unknown> } | null>(null);
  const seen = useRef<unknown>(fetcher.data);
  // The form shows the last refusal until it is cleared (a new submit, the dialog opened again).
  const [cleared, setCleared] = useState<unknown>(fetcher.data);
  const refusal = fetcher.data && fetcher.data !== cleared && !fetcher.data.ok ? fetcher.data : null;
  const serverErrors: FieldError[] = refusal?.status === 422 ? refusal.errors : [];
  const serverMessage = refusal && [400, 403, 422].includes(refusal.status) ? refusal.message : "";

  const clear = useCallback(() => setCleared(fetcher.data), [fetcher.data]);

  // Before the commit's effects: the error summary that appears with a refusal takes the focus in
  // an effect, and the blur it causes must find the field's error already set, or the field would
  // validate itself again with the page's rules from before the answer and clear it.
  useLayoutEffect(() => {
    const answer = fetcher.data;
    const waiting = pending.current;
    if (answer && answer !== seen.current && waiting) {
      seen.current = answer;
      pending.current = null;
      const { options } = waiting;
      if (answer.ok) {
        const text = answer.message && options.messageIsFailure ? undefined : options.success?.(answer);
        if (answer.message && options.messageIsFailure) toast.error(answer.message, { id: waiting.toast });
        else if (text) toast.success(text, { id: waiting.toast });
        else toast.dismiss(waiting.toast);
        options.onDone?.(answer);
      } else {
        toast.dismiss(waiting.toast);
        const refusal = answer.status === 400 || answer.status === 403 || answer.status === 422;
        if (refusal && waiting.options.toastRefusal) {
          const fields = answer.errors.map((e) => e.message);
          toast.error(fields.length ? fields.join(" ") : answer.message);
        } else if (answer.status === 422) {
          if (form) applyServerErrors(form, answer.errors);
        } else if (!refusal) toast.error(answer.message);
        waiting.options.onRefused?.();
      }
    } else if (fetcher.state === "idle" && waiting) {
      // The action redirected (a 401 or 404): nothing came back to show.
      pending.current = null;
      toast.dismiss(waiting.toast);
    }
  }, [fetcher.data, fetcher.state, form]);

  // A form that goes away before its answer (the page was left) leaves no loading toast behind.
  useEffect(
    () => () => {
      if (pending.current) toast.dismiss(pending.current.toast);
    },
    [],
  );

  /** Submits `intent` with `fields` to the route's action; settles once the action and the page's reload are done. */
  const submit = useCallback(
    // `V`: what the action answers for this intent, as the caller knows it from the route's action.
    <V = unknown>(intent: string, fields: ActionFields, options: SubmitOptions<V>): Promise<void> => {
      clear();
      if (pending.current) toast.dismiss(pending.current.toast);
      pending.current = { toast: toast.loading(options.loading), options: options as SubmitOptions<unknown> };
      return fetcher.submit(formDataOf(intent, fields), { method: "post" });
    },
    // `fetcher.submit` is stable across renders; the fetcher object is not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [clear, fetcher.submit],
  );

  return { submit, busy: fetcher.state !== "idle", serverErrors, serverMessage, clear };
}

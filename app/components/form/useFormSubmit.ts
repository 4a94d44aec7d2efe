import type { FieldValues, FormStore, ResponseData } from "@modular-forms/react";
import { useCallback, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "../../client/toast";
import { handleBrowserError } from "../../lib/browser-errors";
import type { FieldError } from "../../lib/api/errors";
import { applyServerErrors } from "../../lib/forms";
import { useLocale } from "../../lib/use-locale";

/**
 * What a form keeps about its last failed submit, and the one way failures are handled: the
 * common handler of spec §8 (redirects, toasts: a 429 is its "other status" toast), a 422 put
 * onto the fields and the summary, a 400/403 shown above the form.
 */
export function useFormSubmit<T extends FieldValues, R extends ResponseData>(form: FormStore<T, R>) {
  const locale = useLocale();
  const navigate = useNavigate();
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  const [serverMessage, setServerMessage] = useState("");

  const clear = useCallback(() => {
    setServerErrors([]);
    setServerMessage("");
  }, []);

  const fail = useCallback(
    (error: unknown) => {
      const handled = handleBrowserError(error, locale, (to) => void navigate(to));
      if (handled.status === 422) {
        setServerErrors(applyServerErrors(form, handled.errors ?? []));
        setServerMessage(handled.message);
      } else if (handled.status === 400 || handled.status === 403) {
        setServerErrors([]);
        setServerMessage(handled.message);
      }
    },
    [form, locale, navigate],
  );

  /** Runs a mutation under a loading toast that is replaced (or dismissed) when it settles. */
  const run = useCallback(
    async <V>(
      loading: string,
      action: () => Promise<V>,
      success?: (value: V) => string | undefined,
    ): Promise<V | undefined> => {
      clear();
      const id = toast.loading(loading);
      try {
        const value = await action();
        const message = success?.(value);
        if (message) toast.success(message, { id });
        else toast.dismiss(id);
        return value;
      } catch (error) {
        toast.dismiss(id);
        fail(error);
        return undefined;
      }
    },
    [clear, fail],
  );

  return { serverErrors, serverMessage, fail, clear, run };
}

import { translate } from "../i18n";
import type { Locale } from "../locales";

/** A field error as spec §5 describes: the field name as its type, its messages joined by a comma. */
export interface FieldError {
  type: string;
  message: string;
}

/** A failed backend call, as a typed value. `status` 0 means no response arrived. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: Record<string, string[]>;
  readonly body: unknown;

  constructor(status: number, message: string, errors: Record<string, string[]> = {}, body?: unknown) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.errors = errors;
    this.body = body;
  }

  get fieldErrors(): FieldError[] {
    return toFieldErrors(this.errors);
  }
}

export function toFieldErrors(errors: Record<string, string[]> | undefined): FieldError[] {
  return Object.entries(errors ?? {}).map(([type, messages]) => ({
    type,
    message: (Array.isArray(messages) ? messages : [String(messages)]).join(", "),
  }));
}

/** What the common handler answers: the status, a message, and field errors for 422. */
export interface HandledError {
  status: number;
  message: string;
  errors?: FieldError[];
}

/** Side effects the handler may ask for; the server and the browser supply their own. */
export interface ErrorEffects {
  locale: Locale;
  /** Navigates (browser) or throws a redirect (server). */
  redirect: (to: string) => void;
  /** Shows an error toast (browser); a no-op on the server. */
  toast: (message: string) => void;
}

/**
 * The one common error handler of spec §8, every row: 400 and 403 return the server message,
 * 401 redirects to login, 404 redirects to /error, 422 returns the field list, 500 and any
 * other status toast, and no response toasts and reports 500.
 */
export function handleApiError(error: unknown, fx: ErrorEffects): HandledError {
  const t = (key: string, params?: Record<string, string | number>) => translate(fx.locale, key, params);
  const fallback = t("errors.default");
  if (!(error instanceof ApiError) || error.status === 0) {
    fx.toast(t("errors.noResponse"));
    return { status: 500, message: t("errors.noResponse") };
  }
  const message = error.message || fallback;
  switch (error.status) {
    case 400:
      return { status: 400, message };
    case 401: {
      fx.redirect(`/${fx.locale}/auth/login`);
      return { status: 401, message: t("errors.unauthorized") };
    }
    case 403:
      return { status: 403, message };
    case 404:
      fx.redirect("/error");
      return { status: 404, message };
    case 422:
      return { status: 422, message, errors: error.fieldErrors };
    case 500: {
      const text = `${t("errors.serverErrorPrefix")}${message}`;
      fx.toast(text);
      return { status: 500, message: text };
    }
    default: {
      const text = t("errors.serverErrorStatus", { status: error.status, message });
      fx.toast(text);
      return { status: error.status, message: text };
    }
  }
}

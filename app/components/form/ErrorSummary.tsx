import { useEffect, useId, useRef } from "react";
import type { FieldError } from "../../lib/api/errors";
import { fieldId } from "./TextField";

export interface ErrorSummaryProps {
  /** 'There were errors in your form.' */
  title: string;
  /** A form-level line under the title (the server's message, or 'Sorry, not all fields...'). */
  message?: string;
  errors: FieldError[];
  /** Field labels by name, so each line says which field it is about. */
  labels?: Record<string, string>;
  idPrefix?: string;
  /** Changes whenever the summary should take focus again (for example the submit count). */
  focusKey?: unknown;
}

/**
 * The error summary above a form: announced and focused when it appears, each line a link to
 * its field, so keyboard and screen-reader users land on what needs fixing.
 */
export function ErrorSummary({ title, message, errors, labels = {}, idPrefix, focusKey }: ErrorSummaryProps) {
  const ref = useRef<HTMLDivElement>(null);
  const headingId = useId();
  useEffect(() => {
    ref.current?.focus();
  }, [focusKey]);
  return (
    <div ref={ref} className="form__summary" role="alert" tabIndex={-1} aria-labelledby={headingId}>
      <h2 id={headingId} className="form__summary-title">
        {title}
      </h2>
      {message ? <p className="form__summary-message">{message}</p> : null}
      {errors.length ? (
        <ul>
          {errors.map((e) => (
            <li key={e.type}>
              <a
                href={`#${fieldId(e.type, idPrefix)}`}
                onClick={(event) => {
                  const target = document.getElementById(fieldId(e.type, idPrefix));
                  if (target) {
                    event.preventDefault();
                    target.focus();
                  }
                }}
              >
                {labels[e.type] ? `${labels[e.type]}: ` : ""}
                {e.message}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

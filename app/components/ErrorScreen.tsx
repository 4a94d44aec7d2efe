import { Link } from "../lib/link";
import { useLocale, useT } from "../lib/use-locale";

/**
 * The error screen of spec §2: the status large; 500 the server-error message; 404 the not-found
 * message and a button home; any other status a generic message and no button.
 */
export function ErrorScreen({ status, detail }: { status: number; detail?: string }) {
  const t = useT();
  const locale = useLocale();
  const message = status === 500 ? t("error.serverError") : status === 404 ? t("error.notFound") : t("error.generic");
  return (
    <section className="error-screen" aria-labelledby="error-status">
      <p id="error-status" className="error-screen__status">
        <bdi>{status}</bdi>
      </p>
      <h1 className="error-screen__message">{message}</h1>
      {detail ? (
        <p className="error-screen__detail">
          <bdi>{detail}</bdi>
        </p>
      ) : null}
      {status === 404 ? (
        <Link className="button button--primary" to={`/${locale}`}>
          {t("error.backHome")}
        </Link>
      ) : null}
    </section>
  );
}

/** Reads a status and a detail line from whatever a route threw. */
export function describeError(error: unknown): { status: number; detail?: string } {
  if (error && typeof error === "object" && "status" in error && typeof error.status === "number") {
    const data = "data" in error ? error.data : undefined;
    return { status: error.status, detail: typeof data === "string" ? data : undefined };
  }
  return { status: 500 };
}

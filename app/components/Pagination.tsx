import { Link } from "../lib/link";
import { useT } from "../lib/use-locale";
import { Stylesheet } from "./Stylesheet";
import paginationCss from "../styles/pagination.css?url";

/** The page numbers to show: first, last, and a window around the current page, with gaps as null. */
export function pageWindow(page: number, last: number, around = 1): (number | null)[] {
  const pages = new Set<number>([1, last]);
  for (let p = page - around; p <= page + around; p++) if (p >= 1 && p <= last) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1] > 1) out.push(null);
    out.push(p);
  });
  return out;
}

/** Page links (plain links, so they work without JavaScript and each page has its own URL). */
export function Pagination({ page, last, href }: { page: number; last: number; href: (page: number) => string }) {
  const t = useT();
  if (last <= 1) return null;
  return (
    <nav className="pagination" aria-label={t("catalogue.pagination")}>
      <Stylesheet href={paginationCss} />
      <ul>
        <li>
          {page > 1 ? (
            <Link to={href(page - 1)} rel="prev" className="pagination__step">
              <span aria-hidden="true" className="icon-flip">
                ‹
              </span>{" "}
              {t("catalogue.previous")}
            </Link>
          ) : (
            <span className="pagination__step" aria-disabled="true">
              <span aria-hidden="true" className="icon-flip">
                ‹
              </span>{" "}
              {t("catalogue.previous")}
            </span>
          )}
        </li>
        {pageWindow(page, last).map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`} className="pagination__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={p}>
              {p === page ? (
                <span className="pagination__page" aria-current="page">
                  <span className="visually-hidden">{t("catalogue.pageN", { page: p })}</span>
                  <bdi aria-hidden="true">{p}</bdi>
                </span>
              ) : (
                <Link to={href(p)} className="pagination__page" aria-label={t("catalogue.pageN", { page: p })}>
                  <bdi>{p}</bdi>
                </Link>
              )}
            </li>
          ),
        )}
        <li>
          {page < last ? (
            <Link to={href(page + 1)} rel="next" className="pagination__step">
              {t("catalogue.next")}{" "}
              <span aria-hidden="true" className="icon-flip">
                ›
              </span>
            </Link>
          ) : (
            <span className="pagination__step" aria-disabled="true">
              {t("catalogue.next")}{" "}
              <span aria-hidden="true" className="icon-flip">
                ›
              </span>
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}

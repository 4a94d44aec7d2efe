import { Link } from "../lib/link";
import { useT } from "../lib/use-locale";

export interface Crumb {
  name: string;
  /** A locale-prefixed path; the last crumb (the current page) has none. */
  to?: string;
}

/** The breadcrumb trail (WAI-ARIA pattern): a labelled nav, an ordered list, the current page marked. */
export function Breadcrumbs({ items }: { items: Crumb[] }) {
  const t = useT();
  return (
    <nav className="breadcrumbs" aria-label={t("catalogue.breadcrumbs")}>
      <ol>
        {items.map((item, i) =>
          item.to && i < items.length - 1 ? (
            <li key={`${i}-${item.name}`}>
              <Link to={item.to}>{item.name}</Link>
            </li>
          ) : (
            <li key={`${i}-${item.name}`} aria-current="page">
              {item.name}
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}

import { shopLongDay } from "../../contract/shop-time";
import type { ContentPage } from "../lib/catalogue";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { Breadcrumbs } from "./Breadcrumbs";
import { PlainText } from "./PlainText";
import { Stylesheet } from "./Stylesheet";
import catalogueCss from "../styles/catalogue.css?url";

/** A content page: its title, excerpt, the body as headings and paragraphs, and when it changed. */
export function ContentPageView({ page, inList = true }: { page: ContentPage; inList?: boolean }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const updated = page.updated_at ? new Date(page.updated_at) : null;
  return (
    <article className="container page content-page">
      <Stylesheet href={catalogueCss} />
      <Breadcrumbs
        items={[
          { name: t("catalogue.home"), to: to("/") },
          ...(inList ? [{ name: t("content.allPages"), to: to("/page") }] : []),
          { name: page.title },
        ]}
      />
      <h1>{page.title}</h1>
      {page.excerpt ? <p className="lead">{page.excerpt}</p> : null}
      <PlainText body={page.body} />
      {updated && !Number.isNaN(updated.getTime()) ? (
        <p className="muted content-page__updated">
          {t("content.updated")}: <time dateTime={updated.toISOString()}>{shopLongDay(updated, locale)}</time>
        </p>
      ) : null}
    </article>
  );
}

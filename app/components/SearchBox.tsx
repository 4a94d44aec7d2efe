import { Form } from "react-router";
import { useLocalePath, useT } from "../lib/use-locale";

/** The header search: a plain GET form to the product list, so it works without JavaScript. */
export function SearchBox() {
  const t = useT();
  const to = useLocalePath();
  return (
    <Form role="search" method="get" action={to("/products")} className="search-box">
      <label htmlFor="site-search" className="visually-hidden">{t("search.label")}</label>
      <input id="site-search" name="q" type="search" placeholder={t("search.placeholder")} autoComplete="off" />
      <button type="submit" className="search-box__submit" aria-label={t("search.submit")}>
        <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20"><circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" /><path d="m20 20-4-4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
      </button>
    </Form>
  );
}

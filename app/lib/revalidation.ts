import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * True for a navigation that changes only the page's query, not its path, without a form: a
 * product page's variant choice, a list's filters or page. The shop's layout data (settings,
 * categories, whether a shopper is signed in) depends on none of it, so those loaders keep their
 * data; a page that reads its query loads again unless it says otherwise (the product page, whose
 * data already holds every variant). An explicit revalidation keeps the same URL and still runs.
 */
export function onlyQueryChanged({ currentUrl, nextUrl, formMethod }: ShouldRevalidateFunctionArgs): boolean {
  return !formMethod && currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search;
}

/** shouldRevalidate for loaders that never read the query. */
export function unlessOnlyQueryChanged(args: ShouldRevalidateFunctionArgs): boolean {
  return onlyQueryChanged(args) ? false : args.defaultShouldRevalidate;
}

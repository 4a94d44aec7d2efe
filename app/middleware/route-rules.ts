import { redirect, type MiddlewareFunction } from "react-router";

/**
 * Route rules (spec §2 "route-rule redirects"): old or moved paths answered with a permanent
 * redirect before any page runs, beside the page-validation 404 (validate-page.ts). A rule is a
 * path pattern of literal segments and `:name` parameters, and the path it moves to; the query
 * string is kept.
 */
export interface RouteRule {
  from: string;
  to: string;
  status: 301 | 302 | 307 | 308;
}

export const ROUTE_RULES: readonly RouteRule[] = [
  // The product page's old address; links and bookmarks to it keep working.
  { from: "/:locale/product/:slug", to: "/:locale/product-details/:slug", status: 301 },
];

/** The target of the first rule that matches `pathname`, or null. Parameters are single segments. */
export function routeRuleFor(
  pathname: string,
  rules: readonly RouteRule[] = ROUTE_RULES,
): { to: string; status: number } | null {
  const parts = pathname.replace(/\/+$/, "").split("/");
  for (const rule of rules) {
    const pattern = rule.from.split("/");
    if (pattern.length !== parts.length) continue;
    const params = new Map<string, string>();
    const matches = pattern.every((segment, i) => {
      if (segment.startsWith(":")) {
        if (parts[i] === "") return false;
        params.set(segment, parts[i]);
        return true;
      }
      return segment === parts[i];
    });
    if (!matches) continue;
    const to = rule.to
      .split("/")
      .map((segment) => (segment.startsWith(":") ? (params.get(segment) ?? "") : segment))
      .join("/");
    return { to, status: rule.status };
  }
  return null;
}

export const routeRulesMiddleware: MiddlewareFunction<Response> = async ({ url }, next) => {
  const rule = routeRuleFor(url.pathname);
  if (rule) throw redirect(`${rule.to}${url.search}`, rule.status);
  return next();
};

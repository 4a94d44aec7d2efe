import { data, type MiddlewareFunction } from "react-router";
import { isLocale } from "../lib/locales";

/** Page validation: a `:locale` segment other than en or ar is a fatal 404 (spec §8). */
export const validatePageMiddleware: MiddlewareFunction<Response> = async ({ url, params }, next) => {
  if (params.locale !== undefined && !isLocale(params.locale)) {
    throw data(`Page Not Found: ${url.pathname}${url.search}`, { status: 404, statusText: "Not Found" });
  }
  return next();
};

import { createContext, data, type RouterContextProvider } from "react-router";
import { roleAtLeast, type StaffMe, type StaffRole } from "../../contract/console";
import { ApiError } from "./api/errors";
import { serverApi } from "./api/server";
import { registerMessages, translate } from "./i18n";
import type { Api } from "./api/client";
import { isLocale, type Locale } from "./locales";

/**
 * The console's pages. The `console` middleware (app/middleware/console.ts) has let only staff with
 * an open console session through and put them here; each page loader then calls its API with
 * `consoleLoad`, which turns a refusal (a role too weak: 403) into the console's "you don't have
 * access" page and a missing record into its "not found" page, both inside the console
 * (routes/admin/layout.tsx `ErrorBoundary`).
 */
export const consoleContext = createContext<StaffMe | null>(null);

/** What a console page answers a staff member: a record that is not there, or a page their role does not open. */
export type ConsoleRefusal = { console: "not_found" | "no_access" };

export const notFoundResponse = () =>
  data<ConsoleRefusal>({ console: "not_found" }, { status: 404, statusText: "Not Found" });

export const noAccessResponse = () =>
  data<ConsoleRefusal>({ console: "no_access" }, { status: 403, statusText: "Forbidden" });

export function consoleLocale(params: { locale?: string }): Locale {
  return isLocale(params.locale) ? params.locale : "en";
}

/**
 * Runs a console page's reads with the session's client; a 403 is the page's "no access", a 404 its
 * "not found". `role`:
 * the weakest role the page is for, for a page that reads nothing a weaker role is refused (a form
 * for a new record); the API still checks every write.
 */
export async function consoleLoad<T>(
  args: { context: Readonly<RouterContextProvider>; request: Request; params: { locale?: string } },
  read: (api: Api, me: StaffMe, locale: Locale) => Promise<T>,
  opts: { role?: StaffRole } = {},
): Promise<T> {
  const locale = consoleLocale(args.params);
  const me = args.context.get(consoleContext);
  if (!me) throw notFoundResponse();
  if (opts.role && !roleAtLeast(me.role, opts.role)) throw noAccessResponse();
  const api = await serverApi(args.context, args.request, locale);
  try {
    return await read(api, me, locale);
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) throw noAccessResponse();
    if (error instanceof ApiError && error.status === 404) throw notFoundResponse();
    throw error;
  }
}

/** A console page's title and robots line (the console is never indexed). */
export function consoleMeta(
  args: { params: { locale?: string }; matches: readonly ({ id: string; loaderData?: unknown } | undefined)[] },
  titleKey: string,
  params?: Record<string, string>,
) {
  const locale = consoleLocale(args.params);
  // The head renders before the layout does: its data brings the console's strings (layout.tsx).
  const layout = args.matches.find((m) => m?.id === "routes/admin/layout")?.loaderData as
    { messages?: Record<string, unknown> } | undefined;
  if (layout?.messages) registerMessages(locale, layout.messages);
  return [
    { title: `${translate(locale, titleKey, params)} | ${translate(locale, "console.title")}` },
    { name: "robots", content: "noindex, nofollow" },
  ];
}

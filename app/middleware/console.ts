import { redirect, type MiddlewareFunction } from "react-router";
import { ApiError } from "../lib/api/errors";
import { getConsoleSession } from "../lib/api/console";
import { serverApi } from "../lib/api/server";
import { consoleContext, consoleLocale, notFoundResponse } from "../lib/console";
import { shopContext } from "../lib/context";

/**
 * The console's gate (issue 20), before any console loader runs: a visitor who is not staff gets
 * the shop's 404 (the console does not exist for them); staff who have not entered their code
 * this sign-in are sent to /admin/sign-in, and nowhere else.
 */
export const consoleMiddleware: MiddlewareFunction<Response> = async ({ request, url, params, context }, next) => {
  const locale = consoleLocale(params);
  const session = await context.get(shopContext).getSession();
  if (!session) throw notFoundResponse();
  let me;
  try {
    me = (await getConsoleSession(await serverApi(context, request, locale))).data;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 401)) throw notFoundResponse();
    throw error;
  }
  const path = url.pathname;
  const signIn = `/${locale}/admin/sign-in`;
  if (!me.elevated && path !== signIn) throw redirect(signIn);
  if (me.elevated && path === signIn) throw redirect(`/${locale}/admin`);
  context.set(consoleContext, me);
  return next();
};

import { redirect, type MiddlewareFunction } from "react-router";
import { ApiError } from "../lib/api/errors";
import { getConsoleSession } from "../lib/api/console";
import { serverApi } from "../lib/api/server";
import { shopChromeData } from "../components/ShopChrome";
import { consoleContext, consoleLocale } from "../lib/console";
import { shopNotFoundResponse } from "../lib/shop-not-found";
import { shopContext } from "../lib/context";
import { categoryTreeReader, storeIdentityReader } from "./catalog";

/**
 * The console's gate, before any console loader runs: a visitor who is not staff gets the shop's
 * 404 for an unmatched path, in the shop's frame (the console does not exist for them); staff who
 * have not entered their code this sign-in are sent to /admin/sign-in, and nowhere else.
 */
export const consoleMiddleware: MiddlewareFunction<Response> = async ({ request, url, params, context }, next) => {
  const locale = consoleLocale(params);
  const session = await context.get(shopContext).getSession();
  const notStaff = async () => {
    const [categories, store] = await Promise.all([
      categoryTreeReader(context, request, locale)(),
      storeIdentityReader(context, request, locale)(),
    ]);
    return shopNotFoundResponse(url.pathname, shopChromeData(categories, !!session, store));
  };
  if (!session) throw await notStaff();
  let me;
  try {
    me = (await getConsoleSession(await serverApi(context, request, locale))).data;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 401)) throw await notStaff();
    throw error;
  }
  const path = url.pathname;
  const signIn = `/${locale}/admin/sign-in`;
  if (!me.elevated && path !== signIn) throw redirect(signIn);
  if (me.elevated && path === signIn) throw redirect(`/${locale}/admin`);
  context.set(consoleContext, me);
  return next();
};

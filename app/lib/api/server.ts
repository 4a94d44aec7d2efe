import type { RouterContextProvider } from "react-router";
import { redirect } from "react-router";
import { shopContext } from "../context";
import { deviceTypeFromHeaders } from "../device";
import type { Locale } from "../locales";
import { createApi, type Api } from "./client";
import { handleApiError, type HandledError } from "./errors";

/** The backend client for a loader or action: in-process transport, the session's token. */
export async function serverApi(
  context: Readonly<RouterContextProvider>,
  request: Request,
  locale: Locale,
): Promise<Api> {
  const shop = context.get(shopContext);
  const session = await shop.getSession();
  return createApi(shop.backend, {
    locale,
    deviceType: deviceTypeFromHeaders(request.headers),
    token: session?.token ?? null,
  });
}

/** The common handler on the server: redirects are thrown, toasts have no place to show. */
export function handleServerError(error: unknown, locale: Locale): HandledError {
  return handleApiError(error, {
    locale,
    redirect: (to) => {
      throw redirect(to);
    },
    toast: () => {},
  });
}

import type { Route } from "./+types/privacy";
import type { ProfileHandle } from "./data";
import { PrivacyAndData } from "../../components/profile/PrivacyAndData";
import { getConsents } from "../../lib/api/consents";
import { handleServerError, serverApi } from "../../lib/api/server";
import { isLocale } from "../../lib/locales";
import { pageMeta } from "../../lib/seo";
import { authMiddleware } from "../../middleware/auth";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const handle: ProfileHandle = { profileSection: "privacy" };

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

/** The shopper's consents and their history, server-rendered (the `auth` guard ran). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  try {
    const api = await serverApi(context, request, locale);
    return { consents: (await getConsents(api)).data };
  } catch (error) {
    handleServerError(error, locale);
    throw error;
  }
}

export default function ProfilePrivacy({ loaderData }: Route.ComponentProps) {
  return <PrivacyAndData initial={loaderData.consents} />;
}

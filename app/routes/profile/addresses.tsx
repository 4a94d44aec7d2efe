import type { Route } from "./+types/addresses";
import type { ProfileHandle } from "./data";
import type { Address } from "../../components/form/AddressForm";
import { Addresses } from "../../components/profile/Addresses";
import { listAddresses } from "../../lib/api/account";
import { handleServerError, serverApi } from "../../lib/api/server";
import { isLocale } from "../../lib/locales";
import { pageMeta } from "../../lib/seo";
import { authMiddleware } from "../../middleware/auth";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const handle: ProfileHandle = { profileSection: "addresses" };

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

/** The saved addresses, server-rendered (the `auth` guard ran, so there is a session). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  try {
    const api = await serverApi(context, request, locale);
    return { addresses: (await listAddresses<Address>(api)).data };
  } catch (error) {
    handleServerError(error, locale);
    throw error;
  }
}

export default function ProfileAddresses({ loaderData }: Route.ComponentProps) {
  return <Addresses initial={loaderData.addresses} />;
}

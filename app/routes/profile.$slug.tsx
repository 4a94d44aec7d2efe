import { useSetAtom } from "jotai";
import { lazy, Suspense, useEffect } from "react";
import { data } from "react-router";
import type { Route } from "./+types/profile.$slug";
import { isProfileSection, ProfileNav, sectionTitleKey, type ProfileSection } from "../components/ProfileNav";
import type { Address } from "../components/form/AddressForm";
import { getProfile, listAddresses } from "../lib/api/account";
import { handleServerError, serverApi } from "../lib/api/server";
import { shopContext } from "../lib/context";
import { restoreIdentity } from "../lib/identity";
import { isLocale } from "../lib/locales";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";
import { authMiddleware } from "../middleware/auth";
import { currentUserAtom } from "../state/session";
import "../styles/account.css";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

/**
 * Each section brings only its own code: a tab page loads the route (nav, heading) plus its own
 * section, so the orders and addresses tabs carry no forms code and the edit tab no password
 * field. The section is server-rendered and hydrates once its chunk is in; the page's own section
 * starts loading as this module is evaluated (before hydration, beside the locale's messages),
 * not when hydration reaches it.
 */
const SECTIONS = {
  orders: () => import("../components/OrderList").then((m) => ({ default: m.OrderList })),
  addresses: () => import("../components/profile/Addresses").then((m) => ({ default: m.Addresses })),
  edit: () => import("../components/profile/EditProfile").then((m) => ({ default: m.EditProfile })),
  "change-password": () => import("../components/profile/ChangePassword").then((m) => ({ default: m.ChangePassword })),
};

const OrderList = lazy(SECTIONS.orders);
const Addresses = lazy(SECTIONS.addresses);
const EditProfile = lazy(SECTIONS.edit);
const ChangePassword = lazy(SECTIONS["change-password"]);

if (typeof document !== "undefined") {
  // The URL is /:locale/profile/:slug; on a client navigation from elsewhere this finds nothing.
  const slug = location.pathname.split("/")[3];
  if (isProfileSection(slug)) void SECTIONS[slug]();
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

/**
 * A profile section: orders, addresses, edit, change-password (DESIGN §4). The `auth` guard
 * sent anonymous visitors to login; an unknown slug is a 404.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const slug = params.slug;
  if (!isProfileSection(slug)) {
    throw data(`Page not found: ${new URL(request.url).pathname}`, { status: 404, statusText: "Not Found" });
  }
  const session = await context.get(shopContext).getSession();
  if (!session) throw data("Unauthorized", { status: 401 });
  const api = await serverApi(context, request, locale);
  try {
    const user = (await getProfile(api)).data;
    const addresses = slug === "addresses" ? (await listAddresses<Address>(api)).data : [];
    return { slug, user, addresses, identity: { token: session.token, userId: user.id } };
  } catch (error) {
    handleServerError(error, locale);
    throw error;
  }
}

export default function ProfileSectionPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const { slug, user, addresses, identity } = loaderData;
  const setUser = useSetAtom(currentUserAtom);
  useEffect(() => {
    restoreIdentity(identity);
    setUser(user);
  }, [identity, user, setUser]);
  const section = slug as ProfileSection;

  return (
    <div className="container page profile-page">
      <h1>{t(sectionTitleKey(section))}</h1>
      <div className="profile-layout">
        <ProfileNav />
        <div className="profile-main">
          <Suspense fallback={<p className="muted">{t("app.loading")}</p>}>
            {section === "orders" ? <OrderList /> : null}
            {section === "addresses" ? <Addresses initial={addresses} /> : null}
            {section === "edit" ? <EditProfile user={user} /> : null}
            {section === "change-password" ? <ChangePassword /> : null}
          </Suspense>
        </div>
      </div>
    </div>
  );
}

import { Outlet, useMatches } from "react-router";
import { Link } from "../../lib/link";
import type { Route } from "./+types/layout";
import type { ProfileHandle } from "./data";
import { ProfileNav, sectionTitleKey } from "../../components/ProfileNav";
import { getProfile } from "../../lib/api/account";
import { handleServerError, serverApi } from "../../lib/api/server";
import { shopContext } from "../../lib/context";
import { restoreIdentity } from "../../lib/tab-storage";
import { isLocale } from "../../lib/locales";
import { formatPhone } from "../../lib/phone";
import { useLocalePath, useT } from "../../lib/use-locale";
import { currentUserAtom } from "../../state/user";
import { browserStore } from "../../state/store";
import { Stylesheet } from "../../components/Stylesheet";
import accountCss from "../../styles/account.css?url";

/**
 * The profile's layout (spec §2): /:locale/profile is the overview (no guard), its sections
 * /:locale/profile/{orders,addresses,edit,change-password} are nested routes with the `auth` guard
 * as their own middleware. The account is read once here for the overview and every section;
 * moving between sections does not read it again. The token goes back to the page so a new tab
 * (session storage is per tab) can call the backend with it.
 */
export async function loader({ context, request, url, params }: Route.LoaderArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const session = await context.get(shopContext).getSession();
  if (!session) return { user: null, phone: "", identity: null };
  try {
    const api = await serverApi(context, request, locale);
    const user = (await getProfile(api)).data;
    // Formatted here, so the page does not download the numbering metadata to show one number.
    return { user, phone: formatPhone(user.phone), identity: { token: session.token, userId: user.id } };
  } catch (error) {
    // On a section the common handler decides (a revoked token goes to login); the overview shows
    // a guest instead, as the token was revoked or expired behind the own-server session.
    if (!/\/profile\/?$/.test(url.pathname)) {
      handleServerError(error, locale);
      throw error;
    }
    return { user: null, phone: "", identity: null };
  }
}

/**
 * In the browser the server's answer brings back the tab's identity and the signed-in user
 * before the page renders with them, and the cart follows the identity it now has. On hydration
 * `serverLoader()` answers with the server-rendered data, without another request.
 */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const data = await serverLoader();
  restoreIdentity(data.identity);
  browserStore()?.set(currentUserAtom, data.user);
  return data;
}
clientLoader.hydrate = true as const;

export default function ProfileLayout({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const matches = useMatches();
  const section = (matches.at(-1)?.handle as ProfileHandle | undefined)?.profileSection;
  if (!loaderData.user) return <ProfileGuest />;
  return (
    <div className="container page profile-page">
      <Stylesheet href={accountCss} />
      <h1>{t(section ? sectionTitleKey(section) : "pages.profile.title")}</h1>
      <div className="profile-layout">
        <ProfileNav />
        <div className="profile-main">
          <Outlet />
        </div>
      </div>
    </div>
  );
}

/** A guest on the overview sees the way in (the sections send guests to login first). */
function ProfileGuest() {
  const t = useT();
  const to = useLocalePath();
  return (
    <div className="container page profile-page">
      <Stylesheet href={accountCss} />
      <h1>{t("pages.profile.title")}</h1>
      <section className="card profile-guest" aria-labelledby="guest-title">
        <h2 id="guest-title">{t("profile.guestTitle")}</h2>
        <p>{t("profile.guestLead")}</p>
        <div className="profile-guest__actions">
          <Link className="button button--primary" to={to("/auth/login")}>
            {t("auth.signIn")}
          </Link>
          <Link className="button" to={to("/auth/register")}>
            {t("auth.createAccount")}
          </Link>
        </div>
        <p className="muted">
          {t("profile.guestTrack")} <Link to={to("/track-order")}>{t("nav.trackOrder")}</Link>
        </p>
      </section>
    </div>
  );
}

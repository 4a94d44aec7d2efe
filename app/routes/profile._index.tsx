import { useSetAtom } from "jotai";
import { useEffect } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/profile._index";
import { PROFILE_SECTIONS, ProfileNav, sectionTitleKey } from "../components/ProfileNav";
import { getProfile } from "../lib/api/account";
import { serverApi } from "../lib/api/server";
import { shopContext } from "../lib/context";
import { restoreIdentity } from "../lib/identity";
import { isLocale } from "../lib/locales";
import { formatPhone } from "../lib/phone";
import { pageMeta } from "../lib/seo";
import { useLocalePath, useT } from "../lib/use-locale";
import { currentUserAtom } from "../state/session";
import "../styles/account.css";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

/**
 * The profile has no guard (spec §2): signed in, it shows the account and its sections; a guest
 * sees the way in. The token goes back to the page so a new tab (session storage is per tab)
 * can call the backend with it.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const session = await context.get(shopContext).getSession();
  if (!session) return { user: null, phone: "", identity: null };
  try {
    const api = await serverApi(context, request, locale);
    const user = (await getProfile(api)).data;
    // Formatted here, so the page does not download the numbering metadata to show one number.
    return { user, phone: formatPhone(user.phone), identity: { token: session.token, userId: user.id } };
  } catch {
    // The token was revoked or expired behind the own-server session: this is a guest now.
    return { user: null, phone: "", identity: null };
  }
}

export default function Profile({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const to = useLocalePath();
  const { user, phone, identity } = loaderData;
  const setUser = useSetAtom(currentUserAtom);
  useEffect(() => {
    restoreIdentity(identity);
    setUser(user);
  }, [identity, user, setUser]);

  if (!user) {
    return (
      <div className="container page profile-page">
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

  return (
    <div className="container page profile-page">
      <h1>{t("pages.profile.title")}</h1>
      <div className="profile-layout">
        <ProfileNav />
        <div className="profile-main">
          <section className="card profile-summary" aria-labelledby="summary-title">
            <div className="profile-summary__avatar" aria-hidden="true">
              {initials(user.name)}
            </div>
            <div>
              <h2 id="summary-title">{t("profile.hello", { name: user.name })}</h2>
              <dl className="profile-summary__list">
                {user.email ? (
                  <div>
                    <dt>{t("auth.email")}</dt>
                    <dd>
                      <bdi>{user.email}</bdi>
                    </dd>
                  </div>
                ) : null}
                {user.phone ? (
                  <div>
                    <dt>{t("auth.phone")}</dt>
                    <dd>
                      <bdi dir="ltr">{phone}</bdi>
                    </dd>
                  </div>
                ) : null}
                <div>
                  <dt>{t("profile.status")}</dt>
                  <dd>
                    <span className={`profile-badge${user.verified ? " profile-badge--ok" : ""}`}>
                      {user.verified ? t("profile.verified") : t("profile.unverified")}
                    </span>
                  </dd>
                </div>
              </dl>
              {!user.verified && user.email ? (
                <Link
                  className="button"
                  to={`${to("/auth/otp")}?${new URLSearchParams({ purpose: "verify", to: user.email, send: "1" })}`}
                >
                  {t("profile.verifyNow")}
                </Link>
              ) : null}
            </div>
          </section>
          <ul className="profile-tiles">
            {PROFILE_SECTIONS.map((s) => (
              <li key={s}>
                <Link className="card profile-tile" to={to(`/profile/${s}`)}>
                  <span className="profile-tile__title">{t(sectionTitleKey(s))}</span>
                  <span className="profile-tile__text muted">
                    {t(`profile.tiles.${s === "change-password" ? "changePassword" : s}`)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0])
    .join("")
    .toUpperCase();
}

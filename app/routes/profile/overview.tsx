import { Link } from "../../lib/link";
import type { Route } from "./+types/overview";
import { useProfileUser, useProfileData } from "./data";
import { PROFILE_SECTIONS, sectionTitleKey } from "../../components/ProfileNav";
import { pageMeta } from "../../lib/seo";
import { useLocalePath, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

/** The profile's overview (spec §2, no guard): the account and the way to its sections. */
export default function ProfileOverview() {
  const t = useT();
  const to = useLocalePath();
  const user = useProfileUser();
  const { phone } = useProfileData();
  return (
    <>
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
                {t(
                  s === "messages"
                    ? "messageChannel.tile"
                    : `profile.tiles.${s === "change-password" ? "changePassword" : s}`,
                )}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </>
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

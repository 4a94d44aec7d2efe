import { useSetAtom } from "jotai";
import { useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { NavLink } from "../lib/link";
import { toast } from "../client/toast";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { currentUserAtom } from "../state/user";
import { Stylesheet } from "./Stylesheet";
import accountCss from "../styles/account.css?url";

/** The profile's sections (DESIGN §4: orders, addresses, edit, change-password; how messages reach the shopper; their data). */
export const PROFILE_SECTIONS = ["orders", "addresses", "edit", "messages", "change-password", "privacy"] as const;
export type ProfileSection = (typeof PROFILE_SECTIONS)[number];

export function isProfileSection(slug: string | undefined): slug is ProfileSection {
  return (PROFILE_SECTIONS as readonly string[]).includes(slug ?? "");
}

const SECTION_KEYS: Record<ProfileSection, string> = {
  orders: "profile.sections.orders",
  addresses: "profile.sections.addresses",
  edit: "profile.sections.edit",
  messages: "messageChannel.nav",
  "change-password": "profile.sections.changePassword",
  privacy: "privacy.title",
};

export function sectionTitleKey(section: ProfileSection): string {
  return SECTION_KEYS[section];
}

/** The profile's side navigation and the logout button. */
export function ProfileNav() {
  const t = useT();
  const to = useLocalePath();
  return (
    <nav className="profile-nav" aria-label={t("profile.navLabel")}>
      <Stylesheet href={accountCss} />
      <ul>
        <li>
          <NavLink to={to("/profile")} end>
            {t("profile.sections.overview")}
          </NavLink>
        </li>
        {PROFILE_SECTIONS.map((s) => (
          <li key={s}>
            <NavLink to={to(`/profile/${s}`)}>{t(SECTION_KEYS[s])}</NavLink>
          </li>
        ))}
        <li>
          <NavLink to={to("/wishlist")}>{t("wishlist.nav")}</NavLink>
        </li>
      </ul>
      <LogoutButton />
    </nav>
  );
}

/** Spec §4: logout clears all session storage and the stored user, and the backend revokes the token. */
export function LogoutButton() {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const setUser = useSetAtom(currentUserAtom);
  const [busy, setBusy] = useState(false);
  const logout = async () => {
    setBusy(true);
    const id = toast.loading(t("profile.signingOut"));
    // Loaded when asked for: the profile pages' first load carries no identity module.
    await (await import("../lib/identity")).signOut(locale);
    setUser(null);
    toast.success(t("profile.signedOut"), { id });
    await navigate(to("/"), { replace: true });
    void revalidator.revalidate();
  };
  return (
    <button type="button" className="button profile-nav__logout" onClick={logout} disabled={busy}>
      <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" className="icon-flip">
        <path
          d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3M10 17l5-5-5-5M15 12H4"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      {t("profile.logout")}
    </button>
  );
}

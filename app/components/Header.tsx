import { useAtom, useAtomValue } from "jotai";
import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { Link, NavLink } from "../lib/link";
import type { CategoryNode } from "../../contract/catalogue";
import { withoutTracking } from "../../contract/edge";
import { LOCALES, otherLocale, switchLocalePath } from "../lib/locales";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { cartDrawerOpenAtom, totalQuantityAtom } from "../state/cart";
import { Logo } from "./Logo";
import { SearchBox } from "./SearchBox";
import { WishlistLink } from "./wishlist/WishlistLink";

export function Header({
  categories,
  signedIn,
  name,
  logo,
}: {
  categories: Pick<CategoryNode, "id" | "slug" | "name">[];
  signedIn: boolean;
  /** The store's name and logo address as the owner set them (store settings); no logo: the built-in one. */
  name: string;
  logo?: string;
}) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const { pathname, search } = useLocation();
  const other = otherLocale(locale);
  const header = useRef<HTMLElement>(null);
  useEffect(() => reserveHeaderSpace(header.current), []);
  const [drawerOpen, setDrawerOpen] = useAtom(cartDrawerOpenAtom);
  const count = useAtomValue(totalQuantityAtom);

  return (
    <header className="site-header" ref={header}>
      <div className="site-header__bar container">
        <Link to={to("/")} className="site-header__logo" aria-label={name}>
          <Logo src={logo} alt={name} />
          <span className="site-header__name">{name}</span>
        </Link>
        <SearchBox />
        <div className="site-header__actions">
          <Link
            className="chip"
            // The same view in the other language; a campaign's tags stay with the landing page.
            to={switchLocalePath(pathname, other) + withoutTracking(search)}
            hrefLang={LOCALES[other].tag}
            lang={LOCALES[other].tag}
            aria-label={`${t("nav.switchLocale")}: ${t("nav.otherLocaleName")}`}
            reloadDocument={false}
          >
            {t("nav.otherLocaleName")}
          </Link>
          {/* The header's icons are drawn by app.css (`.icon-button--*::before`): every page loads this. */}
          <Link
            className="icon-button icon-button--account"
            to={signedIn ? to("/profile") : to("/auth/login")}
            aria-label={signedIn ? t("nav.account") : t("nav.signIn")}
          >
            <span className="icon-button__label">{signedIn ? t("nav.account") : t("nav.signIn")}</span>
          </Link>
          <WishlistLink />
          <button
            type="button"
            className="icon-button cart-button"
            aria-expanded={drawerOpen}
            aria-controls="cart-drawer"
            onClick={() => setDrawerOpen(!drawerOpen)}
          >
            <span className="icon-button__label">{t("nav.cart")}</span>
            {/* The name comes from the content ("Cart, 3 items"), so it always contains the visible label. */}
            {count > 0 ? (
              <>
                <span className="visually-hidden">, {t("cart.items", { count })}</span>
                <span className="badge" aria-hidden="true">
                  <bdi>{count}</bdi>
                </span>
              </>
            ) : null}
          </button>
        </div>
      </div>
      <nav className="site-nav" aria-label={t("nav.main")}>
        <ul className="site-nav__list container">
          <li>
            <NavLink to={to("/")} end>
              {t("nav.home")}
            </NavLink>
          </li>
          <li>
            <NavLink to={to("/products")} end>
              {t("nav.products")}
            </NavLink>
          </li>
          {categories.slice(0, 6).map((c) => (
            <li key={c.id}>
              <Link to={`${to("/products")}?category=${encodeURIComponent(c.slug)}`}>{c.name}</Link>
            </li>
          ))}
          <li>
            <NavLink to={to("/services")}>{t("nav.services")}</NavLink>
          </li>
          <li>
            <NavLink to={to("/track-order")}>{t("nav.trackOrder")}</NavLink>
          </li>
        </ul>
      </nav>
    </header>
  );
}

/**
 * Keeps `--header-block-size` (app.css: the page's scroll padding) as tall as the sticky header,
 * which wraps to two or three rows by width, language and store name: what a #fragment link
 * scrolls to then lands below the header, never hidden under it.
 */
function reserveHeaderSpace(header: HTMLElement | null): (() => void) | undefined {
  if (!header || typeof ResizeObserver === "undefined") return undefined;
  const root = document.documentElement;
  const observer = new ResizeObserver(() =>
    root.style.setProperty("--header-block-size", `${Math.ceil(header.getBoundingClientRect().height)}px`),
  );
  observer.observe(header);
  return () => {
    observer.disconnect();
    root.style.removeProperty("--header-block-size");
  };
}

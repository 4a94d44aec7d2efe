import {
  Link as RouterLink,
  NavLink as RouterNavLink,
  useLocation,
  type LinkProps,
  type NavLinkProps,
} from "react-router";

/**
 * The shop's `<Link>` and `<NavLink>`: React Router's own in the browser; on the server, where a
 * link is only its markup, the same `<a>` written directly.
 *
 * Why: a page renders 35–60 links, and React Router's `<Link>` resolves each one against the
 * route matches (useHref, useResolvedPath with a JSON round trip of the matches' paths), sets up
 * its click handler, prefetch state and ref: about 1.6 ms of the Worker's CPU on the home page
 * (docs/PERFORMANCE.md, "A fresh render within the CPU budget"). None of that reaches the HTML.
 * The shop's links are absolute paths under a locale (`useLocalePath`), whose href is the path
 * itself, so the server writes `<a {...props} href={to} data-discover="true">` exactly as
 * `<Link>` would (test/unit/link.test.tsx renders both and compares), and the browser hydrates
 * it with React Router's `<Link>`, which handles the click, prefetching and the rest as before.
 * `import.meta.env.SSR` is a build-time constant: the browser's bundle keeps only React Router's
 * components.
 *
 * Anything else (a relative or external `to`, an object, prefetch on render or intent, `..` or
 * `//` in the path) is rendered by React Router's own component on the server too.
 */

/** The href React Router gives an absolute path `to`, when it is `to` itself; else undefined. */
export function plainHref(to: LinkProps["to"]): string | undefined {
  if (typeof to !== "string" || to[0] !== "/") return undefined;
  const end = to.search(/[?#]/);
  const pathname = end < 0 ? to : to.slice(0, end);
  // resolvePath drops `.` and `..` segments and collapses repeated slashes; normalizeSearch and
  // normalizeHash drop an empty `?` or `#`. Such paths take React Router's own route.
  if (/\/\/|\\|\/\.\.?(?=\/|$)/.test(pathname) || /\?(#|$)|#$/.test(to)) return undefined;
  return to;
}

export function ServerLink(props: LinkProps & { ref?: React.Ref<HTMLAnchorElement> }) {
  const {
    onClick: _onClick,
    discover = "render",
    prefetch = "none",
    relative: _relative,
    reloadDocument: _reloadDocument,
    replace: _replace,
    mask: _mask,
    state: _state,
    target,
    to,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    defaultShouldRevalidate: _defaultShouldRevalidate,
    ref: _ref,
    children,
    ...rest
  } = props;
  const href = prefetch === "none" || prefetch === "viewport" ? plainHref(to) : undefined;
  if (href === undefined) return <RouterLink {...props} />;
  // The attributes in <Link>'s order: its other props, then href, target, data-discover.
  return (
    <a {...rest} href={href} target={target} data-discover={discover === "render" ? "true" : undefined}>
      {children}
    </a>
  );
}

/** Only ASCII that a URL path keeps as it is: React Router's encodeLocation would not change it. */
const URL_SAFE_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;

export function ServerNavLink(props: NavLinkProps & { ref?: React.Ref<HTMLAnchorElement> }) {
  const {
    "aria-current": ariaCurrent = "page",
    caseSensitive = false,
    className = "",
    end = false,
    style,
    children,
    ...rest
  } = props;
  const { pathname: here } = useLocation();
  const href = plainHref(props.to);
  const path = href?.split(/[?#]/)[0];
  if (
    path === undefined ||
    !URL_SAFE_PATH.test(path) ||
    typeof className === "function" ||
    typeof style === "function" ||
    typeof children === "function" ||
    props.viewTransition
  )
    return <RouterNavLink {...props} />;
  // NavLink's own test; on the server there is no navigation under way (never "pending").
  const current = caseSensitive ? here : here.toLowerCase();
  const target = caseSensitive ? path : path.toLowerCase();
  const endSlash = target !== "/" && target.endsWith("/") ? target.length - 1 : target.length;
  const active = current === target || (!end && current.startsWith(target) && current.charAt(endSlash) === "/");
  return (
    <ServerLink
      {...rest}
      aria-current={active ? ariaCurrent : undefined}
      className={[className, active ? "active" : null].filter(Boolean).join(" ")}
      style={style}
    >
      {children}
    </ServerLink>
  );
}

const BaseLink = import.meta.env.SSR ? (ServerLink as typeof RouterLink) : RouterLink;
const BaseNavLink = import.meta.env.SSR ? (ServerNavLink as typeof RouterNavLink) : RouterNavLink;

/*
 * `discover="none"` unless a link asks otherwise: `data-discover` marks the links React Router's
 * lazy route discovery looks up, and this shop sends the whole route manifest with the first
 * document (`routeDiscovery: "initial"`, react-router.config.ts), so the attribute was never read:
 * 35–60 attributes per page that React wrote and the browser parsed for nothing.
 */
export const Link = ((props: LinkProps) => <BaseLink discover="none" {...props} />) as typeof RouterLink;
export const NavLink = ((props: NavLinkProps) => <BaseNavLink discover="none" {...props} />) as typeof RouterNavLink;

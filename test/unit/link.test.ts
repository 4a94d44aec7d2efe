import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { Link, MemoryRouter, NavLink, Route, Routes, type LinkProps, type NavLinkProps } from "react-router";
import { describe, expect, it } from "vitest";
import { Link as ShopLink, NavLink as ShopNavLink, plainHref, ServerLink, ServerNavLink } from "../../app/lib/link";

/** Renders `node` at `path` inside a router, as the server renders a page. */
function html(path: string, node: ReactNode): string {
  return renderToString(
    createElement(
      MemoryRouter,
      { initialEntries: [path] },
      createElement(Routes, null, createElement(Route, { path: "/:locale/*", element: node })),
    ),
  );
}

const locations = ["/en", "/ar", "/en/products", "/ar/products/", "/en/products/phones", "/en/services"];

// The shop's links as its components write them (Header, Footer, cards, tiles, pagination...).
const links: LinkProps[] = [
  {
    to: "/en",
    className: "site-header__logo",
    "aria-label": "Souq",
    children: [createElement("svg", { key: 1 }), "Souq"],
  },
  { to: "/ar/products", children: "المنتجات" },
  { to: "/en/products?category=phones", children: "Phones" },
  { to: "/en/products?sort=newest&page=2", className: "button button--primary", children: "View all" },
  { to: "/en/product-details/iphone-16-pro", className: "product-card__link", children: "iPhone 16 Pro" },
  { to: `/ar/product-details/${encodeURIComponent("هاتف-ذكي")}`, children: "هاتف" },
  { to: "/en/page/about#team", children: "About" },
  // A search typed in Arabic, as the pagination and the filters carry it: raw and percent-encoded.
  { to: "/ar/products?q=تلفزيون ذكي&page=2", children: "2" },
  { to: `/ar/products?${new URLSearchParams({ q: "تلفزيون ذكي", page: "2" })}`, children: "2" },
  { to: "/en/profile", className: "icon-button", "aria-label": "Account", children: "Account" },
  {
    to: "/ar/products?category=tv",
    className: "chip",
    hrefLang: "ar",
    lang: "ar",
    "aria-label": "Language: العربية",
    reloadDocument: false,
    children: "العربية",
  },
  { to: "/en/track-order", target: "_self", replace: true, state: { from: "x" }, children: "Track" },
  { to: "/en/services", prefetch: "viewport", preventScrollReset: true, children: "Services" },
  { to: "/en/services", discover: "none", children: "Services" },
];

const navLinks: NavLinkProps[] = [
  { to: "/en", end: true, children: "Home" },
  { to: "/en/products", end: true, children: "Products" },
  { to: "/en/products", children: "Products" },
  { to: "/en/services", className: "nav", children: "Services" },
  { to: "/EN/Products", children: "Products" },
  { to: "/EN/Products", caseSensitive: true, children: "Products" },
  { to: "/ar/products/", children: "Products" },
  { to: "/en/services", "aria-current": "location", children: "Services" },
];

describe("the server's links (app/lib/link.tsx)", () => {
  it("write exactly the markup of React Router's <Link>", () => {
    for (const path of locations)
      for (const props of links)
        expect(html(path, createElement(ServerLink, props)), `${path} ${String(props.to)}`).toBe(
          html(path, createElement(Link, props)),
        );
  });

  it("write exactly the markup of React Router's <NavLink>, active or not", () => {
    for (const path of locations)
      for (const props of navLinks)
        expect(html(path, createElement(ServerNavLink, props)), `${path} ${String(props.to)}`).toBe(
          html(path, createElement(NavLink, props)),
        );
    expect(html("/en/products/phones", createElement(ServerNavLink, { to: "/en/products" }, "P"))).toContain(
      'aria-current="page"',
    );
  });

  it("leave to React Router what it would resolve differently", () => {
    for (const to of [
      "products",
      "../x",
      "/en/./products",
      "/en/../ar",
      "//cdn.example/x",
      "https://example.com",
      "/en?",
      "/en#",
      "/en/a//b",
    ])
      expect(plainHref(to), to).toBeUndefined();
    expect(plainHref({ pathname: "/en" })).toBeUndefined();
    expect(plainHref("/en/products?category=phones#top")).toBe("/en/products?category=phones#top");
    // And those still render as React Router renders them.
    for (const path of locations)
      for (const to of ["products", "../services", "/en/./products", "https://example.com/x"])
        expect(html(path, createElement(ServerLink, { to }, "x")), `${path} ${to}`).toBe(
          html(path, createElement(Link, { to }, "x")),
        );
  });

  it("leave out data-discover, which only lazy route discovery reads (the shop sends the whole manifest)", () => {
    for (const path of locations) {
      for (const props of links.filter((p) => p.discover === undefined)) {
        const shop = html(path, createElement(ShopLink, props));
        expect(shop, `${path} ${String(props.to)}`).toBe(
          html(path, createElement(Link, { ...props, discover: "none" })),
        );
        expect(shop).not.toContain("data-discover");
      }
      for (const props of navLinks)
        expect(html(path, createElement(ShopNavLink, props)), `${path} ${String(props.to)}`).toBe(
          html(path, createElement(NavLink, { ...props, discover: "none" })),
        );
    }
    // A link that asks for discovery still gets it.
    expect(html("/en", createElement(ShopLink, { to: "/en/services", discover: "render" }, "S"))).toContain(
      'data-discover="true"',
    );
  });
});

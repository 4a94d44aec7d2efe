import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { Provider as JotaiProvider, createStore } from "jotai";
import { describe, expect, it } from "vitest";
import { PwaStatusAtRest } from "../../app/components/PwaStatus";
import PwaStatusLive from "../../app/components/PwaStatusLive";
import { LocaleContext } from "../../app/lib/use-locale";
import { registerMessages } from "../../app/lib/i18n";
import { installStateAtom, onlineAtom, swStateAtom } from "../../app/state/pwa";
import en from "../../locales/en.json";
import ar from "../../locales/ar.json";

type Store = ReturnType<typeof createStore>;

/** Renders `component` as a page of the shop would: in a data router, a jotai store and a locale. */
function html(component: () => React.ReactElement | null, locale: "en" | "ar", store: Store = createStore()): string {
  const router = createMemoryRouter([{ path: "*", Component: component }], { initialEntries: [`/${locale}`] });
  return renderToString(
    createElement(
      JotaiProvider,
      { store },
      createElement(LocaleContext, { value: locale }, createElement(RouterProvider, { router })),
    ),
  );
}

describe("PwaStatus on the server", () => {
  registerMessages("en", en);
  registerMessages("ar", ar);

  for (const locale of ["en", "ar"] as const) {
    it(`${locale}: the markup at rest is the live component's first render, which the browser hydrates`, () => {
      const live = html(PwaStatusLive, locale);
      expect(live).toContain('class="pwa-status"');
      expect(html(PwaStatusAtRest, locale)).toBe(live);
    });
  }

  it("the comparison would see a state that is not at rest (offline, a worker, an install prompt)", () => {
    const rest = html(PwaStatusAtRest, "en");
    for (const change of [
      (s: Store) => s.set(onlineAtom, false),
      (s: Store) => s.set(swStateAtom, "offline-ready"),
      (s: Store) => s.set(installStateAtom, "accepted"),
    ]) {
      const store = createStore();
      change(store);
      expect(html(PwaStatusLive, "en", store)).not.toBe(rest);
    }
  });
});

import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { installChunkReload } from "./client/chunk-reload";
import { ensureLocale } from "./lib/i18n";
import { localeOfPath, DEFAULT_LOCALE, isLocale } from "./lib/locales";

// A chunk that fails to load after a deploy reloads the page once per path (spec §8); an
// interrupted navigation's aborted request is not reported as an error (client/abort-rejections.ts).
installChunkReload();

// Load only the active locale's messages before hydrating; the other loads on a switch.
const fromDocument = document.documentElement.lang.split("-")[0];
const locale = localeOfPath(location.pathname) ?? (isLocale(fromDocument) ? fromDocument : DEFAULT_LOCALE);

ensureLocale(locale).then(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
  // The hourly build poll (spec §4) and the field-data start-up: client/after-hydration.ts.
  void import("./client/after-hydration");
});

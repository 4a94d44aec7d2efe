import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { ensureLocale } from "./lib/i18n";
import { localeOfPath, DEFAULT_LOCALE, isLocale } from "./lib/locales";

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
});

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
  // Spec §4: poll for a new build every hour; a change makes the next navigation a full load.
  // Nothing is asked before the first hour, so the poll's code loads after hydration; the
  // layout reads its result from the small update-state module. It starts at once rather than
  // from the idle queue (client/idle.ts), so the hour is counted from the page's load.
  void import("./client/update-poll").then(({ updatePoll }) => updatePoll.start());
  // Issue 23: field data (Core Web Vitals of a sample of visits), loaded after hydration, once idle.
  void import("./client/rum-start");
});

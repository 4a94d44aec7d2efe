import { useEffect, useRef, useState } from "react";
import type { Challenge } from "../../../contract/challenge";
import { useLocale, useT } from "../../lib/use-locale";

/** The part of Turnstile's browser API the shop uses (explicit rendering). */
interface Turnstile {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      callback: (token: string) => void;
      "error-callback"?: (code: string) => boolean | void;
      "expired-callback"?: () => void;
      language?: string;
    },
  ): string | undefined;
  remove(id: string): void;
}

declare global {
  interface Window {
    turnstile?: Turnstile;
  }
}

const loading = new Map<string, Promise<Turnstile>>();

/** Loads a widget script once per page (Cloudflare's, or the shop's stand-in in development and test). */
function loadTurnstile(src: string): Promise<Turnstile> {
  let script = loading.get(src);
  if (!script) {
    script = new Promise<Turnstile>((resolve, reject) => {
      const tag = document.createElement("script");
      tag.src = src;
      tag.async = true;
      tag.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error("no turnstile")));
      tag.onerror = () => reject(new Error(`could not load ${src}`));
      document.head.appendChild(tag);
    });
    script.catch(() => loading.delete(src));
    loading.set(src, script);
  }
  return script;
}

/** Turnstile's widget for one challenge; its token goes to `onToken`. */
export default function ChallengeWidget({
  challenge,
  onToken,
}: {
  challenge: Challenge;
  onToken: (token: string) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const box = useRef<HTMLDivElement>(null);
  // The widget keeps the callback it was rendered with: it calls whichever onToken is current.
  const latest = useRef(onToken);
  useEffect(() => {
    latest.current = onToken;
  }, [onToken]);
  const [state, setState] = useState<"loading" | "shown" | "unavailable">("loading");

  useEffect(() => {
    let widget: string | undefined;
    let turnstile: Turnstile | undefined;
    let live = true;
    loadTurnstile(challenge.script)
      .then((api) => {
        if (!live || !box.current) return;
        turnstile = api;
        widget = api.render(box.current, {
          sitekey: challenge.site_key,
          language: locale,
          callback: (token) => latest.current(token),
          "error-callback": () => {
            setState("unavailable");
            return true;
          },
        });
        setState("shown");
      })
      .catch(() => live && setState("unavailable"));
    return () => {
      live = false;
      if (turnstile && widget) turnstile.remove(widget);
    };
  }, [challenge.script, challenge.site_key, locale]);

  return (
    <>
      <div ref={box} className="challenge__widget" />
      {state === "loading" ? <p className="challenge__status muted">{t("app.loading")}</p> : null}
      {state === "unavailable" ? (
        <p className="challenge__status field__error" role="alert">
          {t("challenge.unavailable")}
        </p>
      ) : null}
    </>
  );
}

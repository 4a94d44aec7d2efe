import { useAtom } from "jotai";
import { useEffect, useRef, useState } from "react";
import { useNavigation } from "react-router";
import { useOfflineCartSync } from "../client/offline-cart-sync";
import { toast } from "../client/toast";
import type { BeforeInstallPromptEvent, PwaController } from "../client/pwa";
import { reloadOnNavigation, updateState } from "../client/update-state";
import { useT } from "../lib/use-locale";
import {
  installPromptAtom,
  installStateAtom,
  onlineAtom,
  swRegistrationErrorAtom,
  swStateAtom,
  updatePendingAtom,
} from "../state/pwa";

let registration: Promise<PwaController | null> | undefined;

/**
 * Registration and the install prompt both happen after hydration (an effect, a click), so their
 * code is not part of the first load; the registration effect fetches it right away.
 */
const loadPwa = () => import("../client/pwa");

/**
 * The live app-and-installation states (components/PwaStatus.tsx says which). Its first render is
 * `PwaStatusAtRest`'s markup (test/unit/pwa-status.test.ts compares them), so it hydrates the
 * server's markup whenever its chunk arrives.
 */
export default function PwaStatusLive() {
  const t = useT();
  const [swState, setSwState] = useAtom(swStateAtom);
  const [registrationError, setRegistrationError] = useAtom(swRegistrationErrorAtom);
  const [installPrompt, setInstallPrompt] = useAtom(installPromptAtom);
  const [installState, setInstallState] = useAtom(installStateAtom);
  const [updatePending, setUpdatePending] = useAtom(updatePendingAtom);
  const [online, setOnline] = useAtom(onlineAtom);
  const [installHidden, setInstallHidden] = useState(false);
  const navigation = useNavigation();
  const tRef = useRef(t);
  tRef.current = t;
  // The cart changes made offline: replayed when the connection returns (client/offline-cart-sync.ts).
  useOfflineCartSync(online);

  // After hydration: register the service worker (once per page), at once rather than from the
  // idle queue (client/idle.ts), so the deploy journey in test/e2e/pwa.e2e.ts keeps its tested timing.
  useEffect(() => {
    if (import.meta.env.DEV) return;
    registration ??= loadPwa().then(({ registerServiceWorker }) =>
      registerServiceWorker({
        onState: (state) => setSwState(state),
        onRegistrationError: (error) => {
          console.warn("Service worker registration failed", error);
          setRegistrationError(true);
        },
      }),
    );
  }, [setSwState, setRegistrationError]);

  useEffect(() => {
    const onBeforeInstall = (event: Event) => {
      // Keep the browser's mini-infobar away; the shop offers its own button.
      event.preventDefault();
      setInstallPrompt(event as BeforeInstallPromptEvent);
      setInstallState("available");
    };
    const onInstalled = () => {
      setInstallPrompt(null);
      setInstallState("accepted");
    };
    const onOnline = () => setOnline(true);
    const onOffline = () => setOnline(false);
    setOnline(navigator.onLine);
    setUpdatePending(updateState.isPending());
    const unsubscribe = updateState.subscribe(() => setUpdatePending(updateState.isPending()));
    window.addEventListener("beforeinstallprompt", onBeforeInstall);
    window.addEventListener("appinstalled", onInstalled);
    window.addEventListener("online", onOnline);
    window.addEventListener("offline", onOffline);
    return () => {
      unsubscribe();
      window.removeEventListener("beforeinstallprompt", onBeforeInstall);
      window.removeEventListener("appinstalled", onInstalled);
      window.removeEventListener("online", onOnline);
      window.removeEventListener("offline", onOffline);
    };
  }, [setInstallPrompt, setInstallState, setOnline, setUpdatePending]);

  // Each state is announced once, when it is reached.
  useEffect(() => {
    const say = tRef.current;
    if (swState === "installed") toast(say("sw.workerInstalled"), { id: "sw-state" });
    else if (swState === "offline-ready") toast.success(say("sw.offlineReady"), { id: "sw-state" });
    else if (swState === "waiting") toast(say("sw.waiting"), { id: "sw-state" });
  }, [swState]);
  useEffect(() => {
    if (registrationError) toast.error(tRef.current("sw.registrationError"), { id: "sw-error" });
  }, [registrationError]);
  useEffect(() => {
    if (installState === "accepted") toast.success(tRef.current("sw.installAccepted"), { id: "install" });
    else if (installState === "dismissed") toast(tRef.current("sw.installDismissed"), { id: "install" });
  }, [installState]);
  useEffect(() => {
    if (updatePending) toast(tRef.current("sw.updatePending"), { id: "update-pending" });
  }, [updatePending]);

  // A newer build is live: the navigation that starts now becomes a full document load.
  useEffect(() => {
    if (navigation.state !== "loading" || navigation.formMethod || !navigation.location) return;
    const { pathname, search, hash } = navigation.location;
    reloadOnNavigation(updateState, `${pathname}${search}${hash}`, (url) => window.location.assign(url));
  }, [navigation.state, navigation.formMethod, navigation.location]);

  // The registration may still be finishing when its "waiting" news arrives: accept through it.
  function acceptUpdate() {
    void registration?.then((controller) => controller?.acceptUpdate());
  }

  async function install() {
    if (!installPrompt) return;
    setInstallPrompt(null);
    try {
      const { promptInstall } = await loadPwa();
      setInstallState(await promptInstall(installPrompt));
    } catch {
      setInstallState("dismissed");
    }
  }

  const showInstall = installState === "available" && installPrompt !== null && !installHidden;
  const showRefresh = swState === "need-refresh";

  return (
    <div
      className="pwa-status"
      data-sw-state={swState ?? ""}
      data-sw-registration-error={registrationError ? "true" : undefined}
      data-install-state={installState}
      data-update-pending={updatePending ? "true" : undefined}
    >
      <p className="pwa-status__offline" role="status" hidden={online}>
        {online ? null : t("sw.offline")}
      </p>
      {showRefresh ? (
        <section className="pwa-banner" aria-label={t("sw.needRefresh")}>
          <p className="pwa-banner__text">{t("sw.needRefresh")}</p>
          <div className="pwa-banner__actions">
            <button type="button" className="button button--primary" onClick={acceptUpdate}>
              {t("sw.reload")}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setSwState("waiting")}>
              {t("sw.later")}
            </button>
          </div>
        </section>
      ) : showInstall ? (
        <section className="pwa-banner" aria-label={t("sw.install")}>
          <p className="pwa-banner__text">{t("sw.installPrompt")}</p>
          <div className="pwa-banner__actions">
            <button type="button" className="button button--primary" onClick={() => void install()}>
              {t("sw.install")}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setInstallHidden(true)}>
              {t("sw.notNow")}
            </button>
          </div>
        </section>
      ) : null}
    </div>
  );
}

import { atom } from "jotai";
import type { BeforeInstallPromptEvent, InstallState, ServiceWorkerState } from "../client/pwa";

/** Service worker lifecycle as the shopper sees it (spec §4): null until something happens. */
export const swStateAtom = atom<ServiceWorkerState | null>(null);
/** Set when registering /sw.js failed (spec §8): the shop works, just not offline. */
export const swRegistrationErrorAtom = atom(false);
/** The captured install prompt, offered by the install button. */
export const installPromptAtom = atom<BeforeInstallPromptEvent | null>(null);
export const installStateAtom = atom<InstallState>("unavailable");
/** A newer build is live (update poll); the next navigation is a full reload. */
export const updatePendingAtom = atom(false);
/** navigator.onLine, mirrored so the UI can say the shop is offline. */
export const onlineAtom = atom(true);

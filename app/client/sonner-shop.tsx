// sonner as the shop shows it, loaded lazily by ./toast.tsx (never imported by anything else):
// sonner's own exports, with a Toaster placed below the page's header.
import { useEffect, useState, type ComponentProps } from "react";
import { Toaster as SonnerToaster } from "sonner";

export { toast } from "sonner";

/**
 * Toasts never cover the header's controls (logo, search, language, sign-in, cart; the console's
 * brand and tools), in either direction and at any width: the toaster's top edge sits below the
 * page's header. The header's height changes when it wraps on a phone, so it is measured when the
 * toaster mounts and when each toast is raised (`beforeToast`), and kept up to date by a
 * ResizeObserver; it is looked up again each time, since the storefront and the console each have one.
 */
const HEADER = ".site-header, .console-header";
/** Space between the header's lower edge and the first toast, px (sonner's side offsets stay). */
const BELOW_HEADER_GAP = 8;
const watchers = new Set<() => void>();

function belowHeader(): number {
  const header = document.querySelector<HTMLElement>(HEADER);
  if (!header) return BELOW_HEADER_GAP;
  // The storefront's header is sticky, as tall as its box; the console's scrolls away, so its box
  // height is a safe bound too. Content above a header (none today) would count through `bottom`.
  return Math.ceil(Math.max(header.offsetHeight, header.getBoundingClientRect().bottom)) + BELOW_HEADER_GAP;
}

/** Called by ./toast.tsx before each toast it shows: the header may have changed since. */
export function beforeToast(): void {
  for (const watch of watchers) watch();
}

export function Toaster(props: ComponentProps<typeof SonnerToaster>) {
  // Measured while rendering (this module only ever renders in the browser), so sonner's Toaster
  // mounts, and subscribes, in the same commit as before.
  const [top, setTop] = useState(belowHeader);
  useEffect(() => {
    let watched: Element | null = null;
    const measure = () => setTop(belowHeader());
    const observer = new ResizeObserver(measure);
    const watch = () => {
      const header = document.querySelector(HEADER);
      if (header !== watched) {
        observer.disconnect();
        watched = header;
        if (header) observer.observe(header);
      }
      measure();
    };
    watchers.add(watch);
    watch();
    return () => {
      watchers.delete(watch);
      observer.disconnect();
    };
  }, []);
  return <SonnerToaster {...props} offset={{ top }} mobileOffset={{ top }} />;
}

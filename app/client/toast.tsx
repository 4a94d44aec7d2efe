// The shop's toasts (spec §9): every caller imports `toast` and `Toaster` from here, never from
// "sonner". sonner itself loads when the browser is idle after hydration (a dynamic import) instead
// of with every page's first load, and its Toaster mounts when the first toast is raised: mounting
// it renders synchronously (sonner uses flushSync), a task Lighthouse counted as blocking time on
// every page that never shows a toast. Toasts raised before it is there wait in a queue and show,
// in order, as soon as the real Toaster has subscribed. Server and client both render nothing
// until then, so hydration always matches. Sizes and timings: docs/PERFORMANCE.md ("Bundles").
// The lazily loaded module is ./sonner-shop.tsx: sonner, with its Toaster placed below the header.
import { createElement, useEffect, useState, type ComponentProps } from "react";
import type * as Sonner from "./sonner-shop";
import { whenIdle } from "./idle";

type Real = typeof Sonner;
type Toast = Real["toast"];
type Message = Parameters<Toast>[0];
type Data = NonNullable<Parameters<Toast>[1]>;

let real: Real | undefined;
let loading: Promise<Real> | undefined;
/** True while a real Toaster is mounted and subscribed: only then does a toast show at once. */
let subscribed = false;
const queue: ((s: Real) => void)[] = [];

function load(): Promise<Real> {
  loading ??= import("./sonner-shop").then((m) => (real = m));
  return loading;
}

/** Toasters waiting for the first toast before they mount the real one. */
let wanted = false;
const demand = new Set<() => void>();

function run(call: (s: Real) => void): void {
  if (real && subscribed) {
    real.beforeToast();
    call(real);
  } else {
    queue.push(call);
    if (!wanted) {
      wanted = true;
      for (const mount of demand) mount();
    }
    void load();
  }
}

let counter = 0;
/** Sonner returns the toast's id at once (callers replace a loading toast by id), so we pick it. */
const idFor = (data?: Data) => data?.id ?? `toast-${++counter}`;

type Kind = "success" | "error" | "loading";
function show(kind?: Kind) {
  return (message: Message, data?: Data): string | number => {
    const id = idFor(data);
    run((s) => (kind ? s.toast[kind] : s.toast)(message, { ...data, id }));
    return id;
  };
}

/**
 * The part of sonner's `toast` the shop uses (every page's first load carries this object, so
 * what no caller needs is left out): a plain toast, success, error, loading and dismiss.
 */
export const toast = Object.assign(show(), {
  success: show("success"),
  error: show("error"),
  loading: show("loading"),
  dismiss: (id?: number | string) => {
    run((s) => s.toast.dismiss(id));
    return id ?? "";
  },
});

export function Toaster(props: ComponentProps<Real["Toaster"]>) {
  const [mod, setMod] = useState<Real | undefined>(undefined);
  useEffect(() => {
    let live = true;
    const mount = () => void load().then((m) => live && setMod(m));
    if (wanted) mount();
    else {
      demand.add(mount);
      // Fetch and evaluate sonner while idle, so the first toast only has to mount it.
      whenIdle(() => void load());
    }
    return () => {
      live = false;
      demand.delete(mount);
    };
  }, []);
  useEffect(() => {
    if (!mod) return;
    // The real Toaster (a child) subscribed in its own effect, which runs before this one.
    subscribed = true;
    for (const call of queue.splice(0)) call(mod);
    return () => {
      subscribed = false;
    };
  }, [mod]);
  return mod ? createElement(mod.Toaster, props) : null;
}

import { useEffect, useRef, useState } from "react";
import { useNavigation } from "react-router";
import { useT } from "../lib/use-locale";

/** Spec §9: throttle 200 ms, duration 2000 ms, hide delay 500 ms, reset delay 400 ms, 3 px high. */
export const LOADING_BAR = { throttle: 200, duration: 2000, hideDelay: 500, resetDelay: 400, height: 3 } as const;

type Phase = "idle" | "running" | "finishing";

/** A thin bar at the top while a navigation is under way. */
export function LoadingBar() {
  const t = useT();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [phase, setPhaseState] = useState<Phase>("idle");
  const [progress, setProgress] = useState(0);
  const timers = useRef<number[]>([]);
  // Refs, not the render's values, decide in timers and effects: a timer can fire between a
  // render and its effect (under load it does), and a stale value there left the bar stuck.
  const busyRef = useRef(busy);
  busyRef.current = busy;
  const phaseRef = useRef<Phase>("idle");
  const setPhase = (next: Phase) => {
    phaseRef.current = next;
    setPhaseState(next);
  };

  useEffect(() => {
    const clear = () => {
      timers.current.forEach((id) => window.clearTimeout(id));
      timers.current = [];
    };
    clear();
    if (busy) {
      // Only show for navigations slower than the throttle, so quick ones don't flash.
      timers.current.push(
        window.setTimeout(() => {
          if (!busyRef.current) return;
          setPhase("running");
          setProgress(0);
          requestAnimationFrame(() => setProgress(90));
        }, LOADING_BAR.throttle),
      );
    } else if (phaseRef.current !== "idle") {
      // Running, or a finish that a quick second navigation interrupted: finish (again) and hide.
      setPhase("finishing");
      setProgress(100);
      timers.current.push(
        window.setTimeout(() => {
          setPhase("idle");
          timers.current.push(window.setTimeout(() => setProgress(0), LOADING_BAR.resetDelay));
        }, LOADING_BAR.hideDelay),
      );
    }
    return clear;
    // The bar reacts to navigation changes only; the rest is read through refs.
  }, [busy]);

  return (
    <div
      className="loading-bar"
      role="progressbar"
      aria-label={t("app.loading")}
      aria-hidden={phase === "idle"}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={progress}
      data-phase={phase}
      style={{
        blockSize: `${LOADING_BAR.height}px`,
        inlineSize: `${progress}%`,
        opacity: phase === "idle" ? 0 : 1,
        transitionDuration: phase === "running" ? `${LOADING_BAR.duration}ms` : "200ms",
      }}
    />
  );
}

import { BUILD_ID } from "../lib/build";
import { createUpdateState, updateState, type UpdateState } from "./update-state";

export { reloadOnNavigation } from "./update-state";

/**
 * The build-update check (spec §4 "App and installation", §7 technical calls, §9): every
 * 3,600,000 ms the client asks `/builds/latest.json?t=<timestamp>` which build is live. When the
 * id differs from the running build, an update is pending and the next navigation is a full
 * document load (`reloadOnNavigation`) instead of a client-side one, so the shopper moves to the
 * new build without losing what they are doing now. Nothing needs it before the first hour, so
 * entry.client.tsx loads this module after hydration; the layout reads only update-state.ts.
 */
export const UPDATE_POLL_INTERVAL_MS = 3_600_000;

export interface UpdatePollDeps {
  currentBuildId: string;
  fetch: (url: string, init?: RequestInit) => Promise<Response>;
  now?: () => number;
  intervalMs?: number;
  /** Where the result goes; a fresh state unless given (the page passes its shared one). */
  state?: UpdateState;
}

export interface UpdatePoll extends Pick<UpdateState, "isPending" | "latestId" | "subscribe"> {
  start: () => void;
  stop: () => void;
  /** Asks for the latest build once; true when an update is pending afterwards. */
  check: () => Promise<boolean>;
}

export function createUpdatePoll(deps: UpdatePollDeps): UpdatePoll {
  const now = deps.now ?? (() => Date.now());
  const state = deps.state ?? createUpdateState();
  let timer: ReturnType<typeof setInterval> | undefined;

  /**
   * A new id is only an update once its `builds/meta/{buildId}.json` answers (spec §7 technical
   * calls): a deploy that is still rolling out, or an id the server does not know, is not one yet
   * and the next interval asks again, so the full reload never lands on a half-published build.
   */
  async function buildIsComplete(id: string): Promise<boolean> {
    const res = await deps.fetch(`/builds/meta/${encodeURIComponent(id)}.json`, {
      cache: "no-store",
      headers: { accept: "application/json" },
    });
    if (!res.ok) return false;
    const meta = (await res.json()) as { id?: unknown };
    return meta.id === id;
  }

  async function check(): Promise<boolean> {
    if (state.isPending()) return true;
    try {
      const res = await deps.fetch(`/builds/latest.json?t=${now()}`, {
        cache: "no-store",
        headers: { accept: "application/json" },
      });
      if (!res.ok) return false;
      const body = (await res.json()) as { id?: unknown };
      if (typeof body.id !== "string" || body.id === "") return false;
      if (body.id !== deps.currentBuildId && !(await buildIsComplete(body.id))) return false;
      state.record(body.id, deps.currentBuildId);
    } catch {
      // Offline or a bad answer: try again at the next interval.
    }
    return state.isPending();
  }

  return {
    start() {
      if (timer === undefined) timer = setInterval(() => void check(), deps.intervalMs ?? UPDATE_POLL_INTERVAL_MS);
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
    check,
    isPending: state.isPending,
    latestId: state.latestId,
    subscribe: state.subscribe,
  };
}

/** The one poll of the running page (started in entry.client.tsx after hydration). */
export const updatePoll: UpdatePoll = createUpdatePoll({
  currentBuildId: BUILD_ID,
  fetch: (url, init) => fetch(url, init),
  state: updateState,
});

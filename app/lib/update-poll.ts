import { BUILD_ID } from "./build";

/**
 * The build-update check (spec §4 "App and installation", §7 technical calls, §9): every
 * 3,600,000 ms the client asks `/builds/latest.json?t=<timestamp>` which build is live. When the
 * id differs from the running build, an update is pending and the next navigation is a full
 * document load (`reloadOnNavigation`) instead of a client-side one, so the shopper moves to the
 * new build without losing what they are doing now.
 */
export const UPDATE_POLL_INTERVAL_MS = 3_600_000;

export interface UpdatePollDeps {
  currentBuildId: string;
  fetch: (url: string, init?: RequestInit) => Promise<Response>;
  now?: () => number;
  intervalMs?: number;
}

export interface UpdatePoll {
  start: () => void;
  stop: () => void;
  /** Asks for the latest build once; true when an update is pending afterwards. */
  check: () => Promise<boolean>;
  isPending: () => boolean;
  latestId: () => string | undefined;
  subscribe: (listener: () => void) => () => void;
}

export function createUpdatePoll(deps: UpdatePollDeps): UpdatePoll {
  const now = deps.now ?? (() => Date.now());
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let latest: string | undefined;
  let pending = false;

  async function check(): Promise<boolean> {
    if (pending) return true;
    try {
      const res = await deps.fetch(`/builds/latest.json?t=${now()}`, { cache: "no-store", headers: { accept: "application/json" } });
      if (!res.ok) return false;
      const body = (await res.json()) as { id?: unknown };
      if (typeof body.id !== "string" || body.id === "") return false;
      latest = body.id;
      if (body.id !== deps.currentBuildId) {
        pending = true;
        for (const l of listeners) l();
      }
    } catch {
      // Offline or a bad answer: try again at the next interval.
    }
    return pending;
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
    isPending: () => pending,
    latestId: () => latest,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Called when a client-side navigation starts: with an update pending it turns the navigation
 * into a full load of the same target (true), otherwise it lets the router carry on (false).
 */
export function reloadOnNavigation(poll: Pick<UpdatePoll, "isPending">, target: string, assign: (url: string) => void): boolean {
  if (!poll.isPending()) return false;
  assign(target);
  return true;
}

/** The one poll of the running page (started in entry.client.tsx). */
export const updatePoll: UpdatePoll = createUpdatePoll({
  currentBuildId: BUILD_ID,
  fetch: (url, init) => fetch(url, init),
});

/**
 * Whether a newer build is live (spec §4 "App and installation"): the small surface the layout
 * needs at first load. The polling machinery (update-poll.ts) loads after hydration and marks the
 * update here; PwaStatus reads it and turns the next navigation into a full document load.
 */
export interface UpdateState {
  isPending: () => boolean;
  latestId: () => string | undefined;
  /** Records the latest live build id; a different id than the running one makes the update pending. */
  record: (latestId: string, currentBuildId: string) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createUpdateState(): UpdateState {
  const listeners = new Set<() => void>();
  let latest: string | undefined;
  let pending = false;
  return {
    isPending: () => pending,
    latestId: () => latest,
    record(latestId, currentBuildId) {
      latest = latestId;
      if (pending || latestId === currentBuildId) return;
      pending = true;
      for (const l of listeners) l();
    },
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
export function reloadOnNavigation(
  state: Pick<UpdateState, "isPending">,
  target: string,
  assign: (url: string) => void,
): boolean {
  if (!state.isPending()) return false;
  assign(target);
  return true;
}

/** The running page's update state, filled by the poll that entry.client.tsx starts. */
export const updateState: UpdateState = createUpdateState();

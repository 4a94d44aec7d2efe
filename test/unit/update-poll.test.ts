import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createUpdatePoll, reloadOnNavigation, UPDATE_POLL_INTERVAL_MS } from "../../app/client/update-poll";
import { createUpdateState } from "../../app/client/update-state";

/** A fake /builds/latest.json: answers with whatever build is "live" at the moment of the call. */
function server(initial: string) {
  let live = initial;
  const calls: string[] = [];
  const fetch = vi.fn(async (url: string) => {
    calls.push(url);
    return Response.json({ id: live, timestamp: 1 });
  });
  return { fetch, calls, deploy: (id: string) => (live = id) };
}

describe("update poll", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-22T12:00:00Z"));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("polls every 3,600,000 ms and not before", async () => {
    expect(UPDATE_POLL_INTERVAL_MS).toBe(3_600_000);
    const api = server("build-1");
    const poll = createUpdatePoll({ currentBuildId: "build-1", fetch: api.fetch });
    poll.start();
    await vi.advanceTimersByTimeAsync(3_599_999);
    expect(api.fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(api.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3_600_000 * 2);
    expect(api.fetch).toHaveBeenCalledTimes(3);
    poll.stop();
    await vi.advanceTimersByTimeAsync(3_600_000 * 3);
    expect(api.fetch).toHaveBeenCalledTimes(3);
  });

  it("asks /builds/latest.json with a timestamp query, so no cache answers for the server", async () => {
    const api = server("build-1");
    const poll = createUpdatePoll({ currentBuildId: "build-1", fetch: api.fetch });
    poll.start();
    await vi.advanceTimersByTimeAsync(UPDATE_POLL_INTERVAL_MS);
    await vi.advanceTimersByTimeAsync(UPDATE_POLL_INTERVAL_MS);
    expect(api.calls).toEqual([
      `/builds/latest.json?t=${Date.parse("2026-11-22T13:00:00Z")}`,
      `/builds/latest.json?t=${Date.parse("2026-11-22T14:00:00Z")}`,
    ]);
    poll.stop();
  });

  it("the same build id leaves nothing pending; a new one marks the update pending and tells listeners once", async () => {
    const api = server("build-1");
    const poll = createUpdatePoll({ currentBuildId: "build-1", fetch: api.fetch });
    const listener = vi.fn();
    poll.subscribe(listener);
    poll.start();
    await vi.advanceTimersByTimeAsync(UPDATE_POLL_INTERVAL_MS);
    expect(poll.isPending()).toBe(false);
    expect(listener).not.toHaveBeenCalled();

    api.deploy("build-2");
    await vi.advanceTimersByTimeAsync(UPDATE_POLL_INTERVAL_MS);
    expect(poll.isPending()).toBe(true);
    expect(poll.latestId()).toBe("build-2");
    expect(listener).toHaveBeenCalledTimes(1);

    // Once pending, there is nothing more to ask (latest twice, the new build's meta once).
    await vi.advanceTimersByTimeAsync(UPDATE_POLL_INTERVAL_MS);
    expect(api.fetch).toHaveBeenCalledTimes(3);
    expect(listener).toHaveBeenCalledTimes(1);
    poll.stop();
  });

  it("§7: GET builds/meta/{buildId}.json is fetched when a new build is seen, and only a build whose meta answers is an update", async () => {
    let metaLive = false;
    const calls: string[] = [];
    const fetch = vi.fn(async (url: string) => {
      calls.push(url);
      if (url.startsWith("/builds/latest.json")) return Response.json({ id: "build-2", timestamp: 2 });
      if (url === "/builds/meta/build-2.json" && metaLive) return Response.json({ id: "build-2", timestamp: 2 });
      return Response.json({ message: "Not found" }, { status: 404 });
    });
    const poll = createUpdatePoll({ currentBuildId: "build-1", fetch });
    await poll.check();
    expect(calls).toEqual([`/builds/latest.json?t=${Date.now()}`, "/builds/meta/build-2.json"]);
    expect(poll.isPending()).toBe(false);

    metaLive = true;
    expect(await poll.check()).toBe(true);
    expect(calls.at(-1)).toBe("/builds/meta/build-2.json");

    // The running build's own id never asks for meta.
    const same = vi.fn(async () => Response.json({ id: "build-1" }));
    await createUpdatePoll({ currentBuildId: "build-1", fetch: same }).check();
    expect(same).toHaveBeenCalledTimes(1);
  });

  it("being offline or a broken answer is not an update; the next interval tries again", async () => {
    let attempt = 0;
    const fetch = vi.fn(async () => {
      attempt++;
      if (attempt === 1) throw new TypeError("Failed to fetch");
      if (attempt === 2) return new Response("<html>", { status: 502 });
      if (attempt === 3) return Response.json({ nope: true });
      return Response.json({ id: "build-9" });
    });
    const poll = createUpdatePoll({ currentBuildId: "build-1", fetch });
    poll.start();
    for (let i = 0; i < 3; i++) {
      await vi.advanceTimersByTimeAsync(UPDATE_POLL_INTERVAL_MS);
      expect(poll.isPending()).toBe(false);
    }
    await vi.advanceTimersByTimeAsync(UPDATE_POLL_INTERVAL_MS);
    expect(poll.isPending()).toBe(true);
    poll.stop();
  });

  it("with an update pending the next navigation is a full load of its target; without one the router carries on", async () => {
    const api = server("build-1");
    const poll = createUpdatePoll({ currentBuildId: "build-1", fetch: api.fetch });
    const assign = vi.fn();
    expect(reloadOnNavigation(poll, "/en/products?page=2", assign)).toBe(false);
    expect(assign).not.toHaveBeenCalled();

    api.deploy("build-2");
    poll.start();
    await vi.advanceTimersByTimeAsync(UPDATE_POLL_INTERVAL_MS);
    expect(reloadOnNavigation(poll, "/ar/products?page=2", assign)).toBe(true);
    expect(assign).toHaveBeenCalledWith("/ar/products?page=2");
    poll.stop();
  });
});

describe("update state", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("the poll loaded after hydration marks the update in the state the layout already reads", async () => {
    const state = createUpdateState();
    const listener = vi.fn();
    state.subscribe(listener);
    const api = server("build-2");
    const poll = createUpdatePoll({ currentBuildId: "build-1", fetch: api.fetch, state });
    expect(state.isPending()).toBe(false);
    poll.start();
    await vi.advanceTimersByTimeAsync(UPDATE_POLL_INTERVAL_MS);
    expect(state.isPending()).toBe(true);
    expect(state.latestId()).toBe("build-2");
    expect(listener).toHaveBeenCalledTimes(1);
    const assign = vi.fn();
    expect(reloadOnNavigation(state, "/en/products", assign)).toBe(true);
    expect(assign).toHaveBeenCalledWith("/en/products");
    poll.stop();
  });
});

import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { shopContext, type ShopContext } from "../../contract/edge";
import { forgetReferenceLists, referenceList, REFERENCE_TTL_MS } from "../../app/lib/api/reference";

/** A request's context whose catalogue version is whatever `version.now` says. */
function contextAt(version: { now: number | null }): RouterContextProvider {
  const context = new RouterContextProvider();
  // Only the version is read by referenceList; the rest of the edge's context plays no part here.
  context.set(shopContext, { catalogueVersion: () => Promise.resolve(version.now) } as ShopContext);
  return context;
}

/** A read that counts how often it was made and answers `answer()`. */
function counted<T>(answer: () => Promise<T[]>): { read: () => Promise<T[]>; calls: () => number } {
  let calls = 0;
  return {
    read: () => {
      calls += 1;
      return answer();
    },
    calls: () => calls,
  };
}

afterEach(() => forgetReferenceLists());

describe("referenceList: a reference list kept while the catalogue version stands", () => {
  it("reads once per version and key, for every request of the isolate, and again when the version moves", async () => {
    const version = { now: 7 };
    let name = "Phones";
    const categories = counted(() => Promise.resolve([{ slug: "phones", name }]));
    for (let i = 0; i < 3; i++)
      expect(await referenceList(contextAt(version), "en /categories", categories.read)).toEqual([
        { slug: "phones", name: "Phones" },
      ]);
    expect(categories.calls()).toBe(1);

    // Another key (the other language) is its own read.
    const arabic = counted(() => Promise.resolve([{ slug: "phones", name: "هواتف" }]));
    expect(await referenceList(contextAt(version), "ar /categories", arabic.read)).toEqual([
      { slug: "phones", name: "هواتف" },
    ]);
    expect(arabic.calls()).toBe(1);

    name = "Mobile phones";
    version.now = 8;
    expect(await referenceList(contextAt(version), "en /categories", categories.read)).toEqual([
      { slug: "phones", name: "Mobile phones" },
    ]);
    expect(categories.calls()).toBe(2);
    expect(await referenceList(contextAt(version), "en /categories", categories.read)).toHaveLength(1);
    expect(categories.calls()).toBe(2);
  });

  it("requests arriving together share the one read", async () => {
    const version = { now: 1 };
    const brands = counted(() => new Promise<string[]>((resolve) => setTimeout(() => resolve(["apple"]), 20)));
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => referenceList(contextAt(version), "en /brands", brands.read)),
    );
    expect(answers).toEqual(Array.from({ length: 5 }, () => ["apple"]));
    expect(brands.calls()).toBe(1);
  });

  it("keeps nothing when the backend has no version, nor a failed or empty read", async () => {
    const none = counted(() => Promise.resolve(["apple"]));
    for (let i = 0; i < 3; i++) await referenceList(contextAt({ now: null }), "en /brands", none.read);
    expect(none.calls()).toBe(3);

    const version = { now: 3 };
    let fail = true;
    const flaky = counted(() => (fail ? Promise.reject(new Error("backend down")) : Promise.resolve(["apple"])));
    await expect(referenceList(contextAt(version), "en /brands", flaky.read)).rejects.toThrow("backend down");
    fail = false;
    expect(await referenceList(contextAt(version), "en /brands", flaky.read)).toEqual(["apple"]);
    expect(flaky.calls()).toBe(2);

    let list: string[] = [];
    const empty = counted(() => Promise.resolve(list));
    expect(await referenceList(contextAt(version), "en /categories", empty.read)).toEqual([]);
    list = ["phones"];
    expect(await referenceList(contextAt(version), "en /categories", empty.read)).toEqual(["phones"]);
    expect(empty.calls()).toBe(2);
  });

  it("reads again after REFERENCE_TTL_MS even if the version did not move", async () => {
    const version = { now: 5 };
    const brands = counted(() => Promise.resolve(["apple"]));
    const realNow = Date.now;
    const start = realNow();
    try {
      Date.now = () => start;
      await referenceList(contextAt(version), "en /brands", brands.read);
      Date.now = () => start + REFERENCE_TTL_MS - 1;
      await referenceList(contextAt(version), "en /brands", brands.read);
      expect(brands.calls()).toBe(1);
      Date.now = () => start + REFERENCE_TTL_MS;
      await referenceList(contextAt(version), "en /brands", brands.read);
      expect(brands.calls()).toBe(2);
    } finally {
      Date.now = realNow;
    }
  });
});

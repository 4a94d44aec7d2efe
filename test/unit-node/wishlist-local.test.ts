import { describe, expect, it } from "vitest";
import { MAX_WISHLIST, type WishlistItem } from "../../contract/wishlist";
import {
  EMPTY_WISHLIST,
  mergeItems,
  mirrorAccount,
  parseWishlist,
  toggleItem,
  withoutPending,
  type LocalItem,
  type LocalWishlist,
} from "../../app/lib/wishlist/local";
import {
  MAX_RECENTLY_VIEWED,
  parseViewed,
  recordView,
  refreshed,
  shownBeside,
  viewedName,
  type ViewedProduct,
} from "../../app/lib/recently-viewed";

// The lists this browser keeps (app/lib/wishlist/local.ts, app/lib/recently-viewed.ts): the
// merge on sign-in, their order, their caps and what a malformed store becomes.

const item = (slug: string, saved_at: string, extra: Partial<LocalItem> = {}): LocalItem => ({
  slug,
  variant_id: null,
  saved_at,
  saved_price: 10_000,
  saved_in_stock: true,
  currency: "SAR",
  image: `/img/${slug}.svg`,
  names: { en: slug },
  ...extra,
});

const accountItem = (slug: string, saved_at: string): WishlistItem => ({
  slug,
  product_id: 1,
  variant_id: null,
  name: `اسم ${slug}`,
  names: { en: `Name ${slug}`, ar: `اسم ${slug}` },
  variant_title: null,
  variant_options: null,
  image: `/img/${slug}.svg`,
  price: 9_000,
  compare_at_price: null,
  currency: "SAR",
  in_stock: true,
  available: true,
  variant_count: 1,
  saved_at,
  saved_price: 10_000,
  saved_in_stock: true,
});

describe("the wishlist this browser keeps", () => {
  it("merges two lists as their union, each product keeping its earlier saved time, newest first", () => {
    const guest = [item("a", "2026-03-01T00:00:00.000Z"), item("b", "2026-02-01T00:00:00.000Z")];
    const account = [
      item("b", "2026-01-01T00:00:00.000Z", { saved_price: 5_000 }),
      item("c", "2026-04-01T00:00:00.000Z"),
    ];
    const merged = mergeItems(guest, account);
    expect(merged.map((i) => [i.slug, i.saved_at])).toEqual([
      ["c", "2026-04-01T00:00:00.000Z"],
      ["a", "2026-03-01T00:00:00.000Z"],
      ["b", "2026-01-01T00:00:00.000Z"],
    ]);
    // The earlier save's facts come with its time.
    expect(merged.find((i) => i.slug === "b")?.saved_price).toBe(5_000);
    // Either order gives the same list.
    expect(mergeItems(account, guest)).toEqual(merged);
  });

  it(`keeps at most ${MAX_WISHLIST} products, the newest`, () => {
    const many = Array.from({ length: MAX_WISHLIST + 5 }, (_, i) =>
      item(`p-${i}`, new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString()),
    );
    const kept = mergeItems(many, []);
    expect(kept).toHaveLength(MAX_WISHLIST);
    expect(kept[0].slug).toBe(`p-${MAX_WISHLIST + 4}`);
    expect(kept.some((i) => i.slug === "p-0")).toBe(false);
  });

  it("toggles a guest's product in and out without queueing anything for an account", () => {
    const added = toggleItem(EMPTY_WISHLIST, item("a", "2026-01-01T00:00:00.000Z"));
    expect(added.outcome).toBe("added");
    expect(added.list.items.map((i) => i.slug)).toEqual(["a"]);
    expect(added.list.pending).toEqual([]);
    const removed = toggleItem(added.list, item("a", "2026-01-02T00:00:00.000Z"));
    expect(removed.outcome).toBe("removed");
    expect(removed.list.items).toEqual([]);
  });

  it("refuses a product once the list is full, and still takes one out", () => {
    const full: LocalWishlist = {
      ...EMPTY_WISHLIST,
      items: Array.from({ length: MAX_WISHLIST }, (_, i) => item(`p-${i}`, "2026-01-01T00:00:00.000Z")),
    };
    const refused = toggleItem(full, item("new", "2026-02-01T00:00:00.000Z"));
    expect(refused.outcome).toBe("full");
    expect(refused.list).toBe(full);
    expect(toggleItem(full, item("p-3", "2026-02-01T00:00:00.000Z")).outcome).toBe("removed");
  });

  it("signed in, queues each change for the account, the last one per product counting", () => {
    const mine: LocalWishlist = { owner: "7", items: [], pending: [] };
    const once = toggleItem(mine, item("a", "2026-01-01T00:00:00.000Z")).list;
    expect(once.pending).toEqual([{ op: "add", slug: "a", variant_id: null, saved_at: "2026-01-01T00:00:00.000Z" }]);
    const twice = toggleItem(once, item("a", "2026-01-01T00:00:00.000Z")).list;
    expect(twice.pending).toEqual([{ op: "remove", slug: "a" }]);
    expect(withoutPending(twice, twice.pending).pending).toEqual([]);
  });

  it("mirrors the account's list, with the changes it has not taken yet on top", () => {
    const local: LocalWishlist = {
      owner: "7",
      items: [item("offline-add", "2026-05-01T00:00:00.000Z"), item("a", "2026-01-01T00:00:00.000Z")],
      pending: [
        { op: "add", slug: "offline-add", variant_id: null, saved_at: "2026-05-01T00:00:00.000Z" },
        { op: "remove", slug: "b" },
      ],
    };
    const mirrored = mirrorAccount(
      local,
      "7",
      [accountItem("a", "2026-01-01T00:00:00.000Z"), accountItem("b", "2026-02-01T00:00:00.000Z")],
      "ar",
    );
    expect(mirrored.items.map((i) => i.slug)).toEqual(["offline-add", "a"]);
    expect(mirrored.pending).toHaveLength(2);
    // Both names are kept, so the list shows in either language offline.
    expect(mirrored.items[1].names).toEqual({ en: "Name a", ar: "اسم a" });
  });

  it("mirroring another account's list drops the changes this browser held for the last one", () => {
    const other: LocalWishlist = { owner: "1", items: [], pending: [{ op: "remove", slug: "a" }] };
    const mirrored = mirrorAccount(other, "2", [accountItem("a", "2026-01-01T00:00:00.000Z")], "en");
    expect(mirrored).toMatchObject({ owner: "2", pending: [] });
    expect(mirrored.items.map((i) => i.slug)).toEqual(["a"]);
  });

  it("reads a malformed or hand-edited store as what it can trust", () => {
    expect(parseWishlist(null)).toEqual(EMPTY_WISHLIST);
    expect(parseWishlist("not json")).toEqual(EMPTY_WISHLIST);
    expect(parseWishlist('"a string"')).toEqual(EMPTY_WISHLIST);
    const parsed = parseWishlist(
      JSON.stringify({
        owner: 7,
        items: [
          item("ok", "2026-01-01T00:00:00.000Z"),
          { slug: "no-time" },
          null,
          item("ok", "2026-02-01T00:00:00.000Z"),
        ],
        pending: [
          { op: "drop-table", slug: "x" },
          { op: "remove", slug: "ok" },
        ],
      }),
    );
    expect(parsed.owner).toBeNull();
    expect(parsed.items.map((i) => [i.slug, i.saved_at])).toEqual([["ok", "2026-01-01T00:00:00.000Z"]]);
    expect(parsed.pending).toEqual([{ op: "remove", slug: "ok" }]);
  });
});

const viewed = (slug: string, extra: Partial<ViewedProduct> = {}): ViewedProduct => ({
  slug,
  names: { en: `Name ${slug}` },
  image: `/img/${slug}.svg`,
  price: 1_000,
  currency: "SAR",
  viewed_at: "2026-01-01T00:00:00.000Z",
  ...extra,
});

describe("the products this browser viewed last", () => {
  it("puts a view first, once, keeping the names seen before", () => {
    let list = recordView([], viewed("a"));
    list = recordView(list, viewed("b"));
    list = recordView(list, viewed("a", { names: { ar: "أ" }, price: 900 }));
    expect(list.map((v) => v.slug)).toEqual(["a", "b"]);
    expect(list[0]).toMatchObject({ price: 900, names: { en: "Name a", ar: "أ" } });
  });

  it(`keeps the ${MAX_RECENTLY_VIEWED} newest`, () => {
    let list: ViewedProduct[] = [];
    for (let i = 0; i < MAX_RECENTLY_VIEWED + 3; i++) list = recordView(list, viewed(`p-${i}`));
    expect(list).toHaveLength(MAX_RECENTLY_VIEWED);
    expect(list[0].slug).toBe(`p-${MAX_RECENTLY_VIEWED + 2}`);
    expect(list.some((v) => v.slug === "p-2")).toBe(false);
  });

  it("leaves out the product on screen, and names a product in the other language when it was seen only there", () => {
    const list = [viewed("a"), viewed("b", { names: { ar: "ب" } })];
    expect(shownBeside(list, "a").map((v) => v.slug)).toEqual(["b"]);
    expect(shownBeside(list, undefined)).toHaveLength(2);
    expect(viewedName(list[1], "en")).toBe("ب");
    expect(viewedName(list[1], "ar")).toBe("ب");
  });

  it("takes current prices and both names when read online, and drops a product no longer sold", () => {
    const facts = (slug: string, available: boolean, price: number) => ({
      slug,
      product_id: 1,
      variant_id: null,
      name: slug,
      names: { en: `Name ${slug}`, ar: `اسم ${slug}` },
      variant_title: null,
      variant_options: null,
      image: `/new/${slug}.svg`,
      price,
      compare_at_price: null,
      currency: "SAR",
      in_stock: true,
      available,
      variant_count: 1,
    });
    const list = refreshed([viewed("a"), viewed("b"), viewed("c")], [facts("a", true, 700), facts("b", false, 1)]);
    expect(list.map((v) => v.slug)).toEqual(["a", "c"]);
    expect(list[0]).toMatchObject({ price: 700, image: "/new/a.svg", names: { en: "Name a", ar: "اسم a" } });
    // Not read (offline, or unknown to the shop): kept as stored.
    expect(list[1]).toEqual(viewed("c"));
  });

  it("reads a malformed store as empty, and a repeated product once", () => {
    expect(parseViewed("{")).toEqual([]);
    expect(parseViewed("{}")).toEqual([]);
    expect(parseViewed(JSON.stringify([viewed("a"), { slug: "x" }, viewed("a", { price: 5 })]))).toEqual([viewed("a")]);
  });
});

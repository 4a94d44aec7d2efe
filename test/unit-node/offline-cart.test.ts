import { createStore } from "jotai";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import ar from "../../locales/ar.json";
import en from "../../locales/en.json";
import type { CartSyncOutcome } from "../../contract/cart";
import type { CartContext } from "../../app/lib/cart";
import { registerMessages } from "../../app/lib/i18n";
import {
  coalesce,
  detectConflicts,
  pendingKeys,
  syncBody,
  withChanges,
  type OfflineChange,
} from "../../app/lib/offline-cart/queue";
import { queueKey, readChanges, readSnapshot, writeChanges } from "../../app/lib/offline-cart/store";
import { cartListAtom, EMPTY_CART, withLineQuantity, type CartLine, type CartList } from "../../app/state/cart";
import { offlineConflictsAtom, offlinePendingAtom } from "../../app/state/offline-cart";
import { productSummary } from "../support/product-summary";

// The cart offline (app/lib/offline-cart): the queue's rules, and the replay against a backend
// that keeps carts the way POST /cart/sync does (each line set to a quantity, clamped to stock).

const toasts = vi.hoisted(() => [] as string[]);
vi.mock("../../app/client/toast", () => ({
  toast: Object.assign((m: string) => toasts.push(`plain ${m}`), {
    success: (m: string) => toasts.push(`success ${m}`),
    error: (m: string) => toasts.push(`error ${m}`),
  }),
}));

const line = (id: number, quantity: number, price = 1000, stock = 10, variant?: number): CartLine => ({
  product_id: id,
  variant_id: variant,
  variant: null,
  quantity,
  line_total: price * quantity,
  product: productSummary(id, price, stock),
});

function cartOf(lines: CartLine[]): CartList {
  const subtotal = lines.reduce((sum, l) => sum + (l.line_total ?? 0), 0);
  return { ...EMPTY_CART, products: lines, subtotal, total: subtotal };
}

let at = 0;
const change = (
  ref: { product_id: number; variant_id?: number },
  quantity: number,
  seen?: CartLine,
): OfflineChange => ({
  id: `c${++at}`,
  ref,
  quantity,
  line: seen,
  at: Date.now(),
});

/** Browser storage, in memory. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
    key: (i: number) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  };
}

const g = globalThis as unknown as { window?: { sessionStorage: Storage; localStorage: Storage } };

beforeAll(() => {
  registerMessages("en", en);
  registerMessages("ar", ar);
});
beforeEach(() => {
  g.window = { sessionStorage: memoryStorage(), localStorage: memoryStorage() };
  g.window.sessionStorage.setItem("guestId", "0b6c3f3e-1111-4222-8333-444455556666");
  toasts.length = 0;
});
afterEach(() => {
  vi.restoreAllMocks();
  delete g.window;
});

describe("the offline queue", () => {
  it("coalesces changes per line: the final quantity wins, in the order lines were first changed", () => {
    const changes = [
      change({ product_id: 1 }, 1, line(1, 0)),
      change({ product_id: 2, variant_id: 20 }, 2),
      change({ product_id: 1 }, 3),
      change({ product_id: 2, variant_id: 21 }, 1),
      change({ product_id: 2, variant_id: 20 }, 0),
      change({ product_id: 1 }, 2),
    ];
    const lines = coalesce(changes);
    expect(lines.map((l) => [l.key, l.quantity])).toEqual([
      [1, 2],
      [20, 0],
      [21, 1],
    ]);
    // The line seen on its page stays with the line when later changes carry none.
    expect(lines[0].line?.product?.name).toBe("Product 1");
    expect(syncBody(lines)).toEqual({
      lines: [
        { product_id: 1, quantity: 2 },
        { product_id: 2, variant_id: 20, quantity: 0 },
        { product_id: 2, variant_id: 21, quantity: 1 },
      ],
    });
    expect([...pendingKeys(changes)]).toEqual([1, 20, 21]);
  });

  it("shows the cart offline at once: the last cart with the changes applied in order, totals following", () => {
    const before = cartOf([line(1, 1, 5000), line(2, 2, 3000)]);
    const shown = withChanges(before, [
      change({ product_id: 3 }, 1, line(3, 0, 7000)),
      change({ product_id: 1 }, 3),
      change({ product_id: 2 }, 0),
      change({ product_id: 3 }, 2),
    ]);
    expect(shown.products.map((l) => [l.product_id, l.quantity, l.line_total])).toEqual([
      [1, 3, 15000],
      [3, 2, 14000],
    ]);
    expect(shown.subtotal).toBe(29000);
    expect(shown.total).toBe(29000);
  });

  it("keeps a queue per cart owner and drops queues older than a guest cart lives", () => {
    const tabKey = queueKey();
    expect(tabKey).toMatch(/^offlineCart:t:/);
    // The guest id itself is never written where it would outlive the tab.
    expect(tabKey).not.toContain("0b6c3f3e");
    writeChanges([change({ product_id: 1 }, 1), { ...change({ product_id: 2 }, 1), at: Date.now() - 31 * 86_400_000 }]);
    expect(readChanges().map((c) => c.ref.product_id)).toEqual([1]);
    g.window!.sessionStorage.setItem("token", "a-bearer-token-of-some-length");
    g.window!.sessionStorage.setItem("userId", "42");
    expect(queueKey()).toBe("offlineCart:u:42");
    expect(readChanges()).toEqual([]);
    g.window!.localStorage.setItem("offlineCart:u:42", "not json");
    expect(readChanges()).toEqual([]);
  });
});

describe("conflicts after a replay", () => {
  const seen = (id: number, quantity: number, price: number) => ({
    key: id,
    ref: { product_id: id },
    quantity,
    line: line(id, quantity, price),
  });

  it("finds each line that did not go as asked, from what was intended and the cart after", () => {
    const intended = [
      seen(1, 2, 1000),
      seen(2, 3, 1000),
      seen(3, 1, 1000),
      seen(4, 1, 1000),
      seen(5, 0, 1000),
      seen(6, 1, 2000),
    ];
    const after = cartOf([line(1, 2, 1000), line(2, 1, 1000, 1), line(6, 1, 2500)]);
    const outcomes: CartSyncOutcome[] = [
      { product_id: 1, variant_id: 1, requested: 2, quantity: 2, status: "applied" },
      { product_id: 2, variant_id: 2, requested: 3, quantity: 1, status: "reduced" },
      { product_id: 3, variant_id: 3, requested: 1, quantity: 0, status: "sold_out" },
      { product_id: 4, variant_id: 4, requested: 1, quantity: 0, status: "unavailable" },
      { product_id: 5, variant_id: 5, requested: 0, quantity: 0, status: "removed" },
      { product_id: 6, variant_id: 6, requested: 1, quantity: 1, status: "applied" },
    ];
    expect(detectConflicts(intended, after, outcomes)).toEqual([
      { key: 2, name: "Product 2", variant: null, kind: "reduced", wanted: 3, quantity: 1 },
      { key: 3, name: "Product 3", variant: null, kind: "soldOut" },
      { key: 4, name: "Product 4", variant: null, kind: "unavailable" },
      { key: 6, name: "Product 6", variant: null, kind: "priceChanged", was: 2000, now: 2500, currency: "SAR" },
    ]);
  });

  it("reads a sold-out line from the cart itself when a backend gives no outcomes", () => {
    const intended = [seen(1, 2, 1000), seen(2, 1, 1000)];
    const after = cartOf([line(1, 2, 1000, 0)]);
    expect(detectConflicts(intended, after).map((c) => [c.key, c.kind])).toEqual([
      [1, "soldOut"],
      [2, "unavailable"],
    ]);
    expect(detectConflicts([seen(1, 2, 1000)], cartOf([line(1, 2, 1000)]))).toEqual([]);
  });
});

/**
 * A backend that keeps one cart the way POST /cart/sync does, answering like the real one; `lose`
 * makes the next sync apply and then drop its answer, as a connection failing mid-replay would.
 */
function fakeBackend(stock: Record<number, number>, prices: Record<number, number> = {}) {
  const held = new Map<number, number>();
  const calls: { method: string; url: string; body: unknown }[] = [];
  let lose = false;
  const cart = () => ({
    products: [...held].map(([id, q]) => line(id, q, prices[id] ?? 1000, stock[id] ?? 10)),
    total_quantity: [...held.values()].reduce((a, b) => a + b, 0),
    subtotal: [...held].reduce((sum, [id, q]) => sum + (prices[id] ?? 1000) * q, 0),
    discount: 0,
    total: [...held].reduce((sum, [id, q]) => sum + (prices[id] ?? 1000) * q, 0),
    currency: "SAR",
    promo: null,
    invalid: [],
  });
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = String(input);
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method: init?.method ?? "GET", url, body });
    if (url !== "/backend/cart/sync") return Response.json({ data: cart() });
    const outcomes = (body.lines as { product_id: number; quantity: number }[]).map((l) => {
      if (l.quantity === 0) {
        held.delete(l.product_id);
        return { product_id: l.product_id, variant_id: l.product_id, requested: 0, quantity: 0, status: "removed" };
      }
      const left = stock[l.product_id] ?? 10;
      if (left <= 0)
        return {
          product_id: l.product_id,
          variant_id: l.product_id,
          requested: l.quantity,
          quantity: held.get(l.product_id) ?? 0,
          status: "sold_out",
        };
      held.set(l.product_id, Math.min(l.quantity, left));
      const status = left < l.quantity ? "reduced" : "applied";
      return {
        product_id: l.product_id,
        variant_id: l.product_id,
        requested: l.quantity,
        quantity: held.get(l.product_id),
        status,
      };
    });
    if (lose) {
      lose = false;
      throw new TypeError("Failed to fetch");
    }
    return Response.json({ data: { cart: cart(), outcomes } });
  });
  return { held, calls, loseNextAnswer: () => (lose = true) };
}

function context(locale: "en" | "ar" = "en"): CartContext {
  return { store: createStore(), locale, navigate: () => {}, pathname: () => `/${locale}/products` };
}

describe("replaying the offline cart", () => {
  it("sends the coalesced lines once, in order, and a replay whose answer was lost never doubles a quantity", async () => {
    const { saveOffline, replayOfflineCart } = await import("../../app/lib/offline-cart");
    const backend = fakeBackend({ 1: 10, 2: 10 });
    const ctx = context();
    ctx.store.set(cartListAtom, cartOf([line(1, 1)]));
    // Offline: one more of product 1, two of product 2, then product 1 set to 4.
    expect(saveOffline(ctx, { product_id: 1 }, 1, { add: true })).toEqual({ ok: true, offline: true });
    saveOffline(ctx, { product_id: 2 }, 2, { add: true, seen: line(2, 0) });
    saveOffline(ctx, { product_id: 1 }, 4);
    expect(ctx.store.get(cartListAtom).products.map((l) => [l.product_id, l.quantity])).toEqual([
      [1, 4],
      [2, 2],
    ]);
    expect([...ctx.store.get(offlinePendingAtom)]).toEqual([1, 2]);
    expect(readSnapshot()?.products.map((l) => [l.product_id, l.quantity])).toEqual([[1, 1]]);
    expect(backend.calls).toEqual([]);

    // The first replay reaches the backend, but its answer is lost: the queue stays.
    backend.loseNextAnswer();
    await replayOfflineCart(ctx);
    expect(readChanges()).toHaveLength(3);
    expect(Object.fromEntries(backend.held)).toEqual({ 1: 4, 2: 2 });

    await replayOfflineCart(ctx);
    const syncs = backend.calls.filter((c) => c.url === "/backend/cart/sync");
    expect(syncs.map((c) => c.body)).toEqual([
      {
        lines: [
          { product_id: 1, quantity: 4 },
          { product_id: 2, quantity: 2 },
        ],
      },
      {
        lines: [
          { product_id: 1, quantity: 4 },
          { product_id: 2, quantity: 2 },
        ],
      },
    ]);
    expect(Object.fromEntries(backend.held)).toEqual({ 1: 4, 2: 2 });
    expect(readChanges()).toEqual([]);
    expect(ctx.store.get(offlinePendingAtom).size).toBe(0);
    expect(ctx.store.get(cartListAtom).products.map((l) => [l.product_id, l.quantity])).toEqual([
      [1, 4],
      [2, 2],
    ]);
    expect(ctx.store.get(offlineConflictsAtom)).toEqual([]);
    expect(toasts).toEqual([`success ${en.offlineCart.synced}`]);

    // Nothing left: another replay sends nothing.
    await replayOfflineCart(ctx);
    expect(backend.calls.filter((c) => c.url === "/backend/cart/sync")).toHaveLength(2);
  });

  it("explains in the shopper's language what sold out, what was reduced and what changed price", async () => {
    const { saveOffline, replayOfflineCart } = await import("../../app/lib/offline-cart");
    const backend = fakeBackend({ 1: 0, 2: 1, 3: 10 }, { 3: 1500 });
    const ctx = context("ar");
    saveOffline(ctx, { product_id: 1 }, 1, { add: true, seen: line(1, 0) });
    saveOffline(ctx, { product_id: 2 }, 3, { add: true, seen: line(2, 0) });
    saveOffline(ctx, { product_id: 3 }, 1, { add: true, seen: line(3, 0, 1000) });
    await replayOfflineCart(ctx);
    expect(Object.fromEntries(backend.held)).toEqual({ 2: 1, 3: 1 });
    expect(ctx.store.get(offlineConflictsAtom).map((c) => c.kind)).toEqual(["soldOut", "reduced", "priceChanged"]);
    expect(toasts).toEqual([`error ${ar.offlineCart.conflictsToast}`]);
  });

  it("an add offline past the stock last seen is refused at once, and queues nothing", async () => {
    const { saveOffline } = await import("../../app/lib/offline-cart");
    const ctx = context();
    ctx.store.set(cartListAtom, cartOf([line(1, 2, 1000, 2)]));
    expect(saveOffline(ctx, { product_id: 1 }, 1, { add: true })).toEqual({
      ok: false,
      message: en.cart.invalidQuantity,
    });
    expect(readChanges()).toEqual([]);
  });

  it("still offline, a replay keeps the queue and shows the queued cart", async () => {
    const { saveOffline, replayOfflineCart } = await import("../../app/lib/offline-cart");
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("Failed to fetch"));
    const ctx = context();
    ctx.store.set(cartListAtom, cartOf([line(1, 1)]));
    saveOffline(ctx, { product_id: 1 }, 3);
    ctx.store.set(cartListAtom, EMPTY_CART);
    await replayOfflineCart(ctx);
    expect(readChanges()).toHaveLength(1);
    expect(ctx.store.get(cartListAtom).products.map((l) => [l.product_id, l.quantity])).toEqual([[1, 3]]);
    expect(withLineQuantity(cartOf([line(1, 1)]), { product_id: 1 }, 3).subtotal).toBe(3000);
  });

  it("replays line by line on a backend without the sync call, and still explains what it refused", async () => {
    const { saveOffline, replayOfflineCart } = await import("../../app/lib/offline-cart");
    const held = new Map<number, number>([[1, 1]]);
    const calls: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = String(input);
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push(`${init?.method ?? "GET"} ${url}${body ? ` ${JSON.stringify(body)}` : ""}`);
      if (url === "/backend/cart/sync") return Response.json({ message: "Not found" }, { status: 404 });
      if (url === "/backend/cart/update-quantity") {
        if (body.product_id === 2) return Response.json({ message: "Out of stock" }, { status: 422 });
        held.set(body.product_id, body.quantity);
        return Response.json({ data: {} });
      }
      return Response.json({
        data: { ...cartOf([...held].map(([id, q]) => line(id, q))), total_quantity: 0 },
      });
    });
    const ctx = context();
    ctx.store.set(cartListAtom, cartOf([line(1, 1)]));
    saveOffline(ctx, { product_id: 1 }, 3);
    saveOffline(ctx, { product_id: 2 }, 1, { add: true, seen: line(2, 0) });
    await replayOfflineCart(ctx);
    expect(calls.filter((c) => c.startsWith("POST"))).toEqual([
      'POST /backend/cart/sync {"lines":[{"product_id":1,"quantity":3},{"product_id":2,"quantity":1}]}',
      'POST /backend/cart/update-quantity {"product_id":1,"quantity":3}',
      'POST /backend/cart/update-quantity {"product_id":2,"quantity":1}',
    ]);
    expect(Object.fromEntries(held)).toEqual({ 1: 3 });
    expect(readChanges()).toEqual([]);
    expect(ctx.store.get(offlineConflictsAtom).map((c) => [c.key, c.kind])).toEqual([[2, "unavailable"]]);
  });
});

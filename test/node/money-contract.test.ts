import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The money path's wire types (the cart, checkout and payments) are declared once, in contract/
// (contract/cart.ts, checkout.ts, payments.ts, orders.ts), and request types are inferred from the
// valibot schemas of contract/inputs.ts. A copy declared by hand elsewhere drifts from the
// contract without a compiler noticing; this test fails when one appears. Aliases and types
// derived from the contract's (`type CartList = Omit<Cart, …>`) are fine: only a new shape counts.

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** The names of the money path's wire types, as the contract or an earlier copy spelled them. */
const WIRE_TYPES = [
  "Cart",
  "CartLine",
  "CartPromo",
  "CartResponse",
  "AppliedPromo",
  "PromoChecked",
  "Totals",
  "CheckoutOptions",
  "ShippingMethod",
  "PaymentMethod",
  "CheckoutInput",
  "CheckoutRequest",
  "PlaceOrder",
  "NewAddress",
  "SavedAddress",
  "DeliveryAddress",
  "PaymentStart",
  "PaymentStartRequest",
  "PaymentStatus",
  "PaymentStatusView",
];

const SHAPE = new RegExp(
  String.raw`^\s*(?:export\s+)?(?:declare\s+)?(?:interface\s+(${WIRE_TYPES.join("|")})\b|type\s+(${WIRE_TYPES.join("|")})\s*(?:<[^=]*>)?\s*=\s*\{)`,
  "gm",
);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Every hand-declared money-path wire type in `text`, by name. */
export function wireShapes(text: string): string[] {
  return [...text.matchAll(SHAPE)].map((match) => match[1] ?? match[2]);
}

describe("the money path's contract", () => {
  it("the cart, checkout and payment wire types are declared in contract/ only", () => {
    const found: string[] = [];
    for (const folder of ["app", "worker"]) {
      for (const file of sourceFiles(join(ROOT, folder))) {
        for (const name of wireShapes(readFileSync(file, "utf8")))
          found.push(`${relative(ROOT, file).split(sep).join("/")}: ${name}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("the contract declares each of them", () => {
    const declared = new Set(
      sourceFiles(join(ROOT, "contract")).flatMap((file) => {
        const text = readFileSync(file, "utf8");
        return [...text.matchAll(/^export\s+(?:interface|type)\s+(\w+)/gm)].map((m) => m[1]);
      }),
    );
    expect(WIRE_TYPES.filter((name) => !declared.has(name) && !LEGACY_NAMES.has(name))).toEqual([]);
  });

  it("a copy declared by hand is found, and an alias or a derived type is not", () => {
    const text = [
      "export interface Cart {\n  products: unknown[];\n}",
      "type PlaceOrder = { idempotency_key: string };",
      "export type CheckoutInput = CheckoutRequestRead<ShippingMethodId, PaymentMethodId>;",
      "export type CartList = Omit<Cart, 'total_quantity'> & { products: CartLine[] };",
      "export interface CartLineView { product_id: number }",
    ].join("\n");
    expect(wireShapes(text)).toEqual(["Cart", "PlaceOrder"]);
  });
});

/** Names an earlier copy used that the contract spells otherwise (found if declared again). */
const LEGACY_NAMES = new Set(["CartResponse", "AppliedPromo", "PlaceOrder", "SavedAddress"]);

/**
 * Splitting money in whole halalas so that the parts always add up exactly: VAT across a tax
 * document's lines (services/orders/invoices.ts), an order's discount across its lines (checkout, and
 * migration 0026 for orders placed before lines kept their net), and a line's net across the units
 * returned (services/orders/returns.ts).
 */

/**
 * Shares `total` out in proportion to `amounts` (which may include a negative discount), in whole
 * halalas by the largest remainder (ties to the earlier amount), so the shares add up exactly to
 * `total`. Migration 0026 repeats this rule in SQL for the discount of orders placed before it.
 */
export function allocate(total: number, amounts: number[]): number[] {
  const sum = amounts.reduce((a, b) => a + b, 0);
  if (sum === 0) return amounts.map(() => 0);
  const shares = amounts.map((a) => Math.floor((a * total) / sum));
  const remainders = amounts.map((a, i) => ({ i, r: a * total - shares[i] * sum }));
  let left = total - shares.reduce((a, b) => a + b, 0);
  remainders.sort((x, y) => y.r - x.r || x.i - y.i);
  for (const { i } of remainders) {
    if (left <= 0) break;
    shares[i] += 1;
    left -= 1;
  }
  return shares;
}

/**
 * What was paid for each order line: its list total less its share of the order's discount
 * (shared in proportion to the list totals). The nets add up exactly to subtotal − discount, and
 * each stays between 0 and its list total (a discount never exceeds the subtotal).
 */
export function lineNets(lineTotals: number[], discount: number): number[] {
  const shares = allocate(discount, lineTotals);
  return lineTotals.map((total, i) => total - shares[i]);
}

/**
 * What `count` units of a line cost, after `before` of its units were already counted, out of a
 * line of `quantity` units that cost `net` together. The line's units are priced cumulatively
 * (the first n units cost ⌊net × n / quantity⌋), so however the units are split into returns the
 * parts add up to exactly `net` once every unit is back, and never to more.
 */
export function unitsNet(net: number, quantity: number, before: number, count: number): number {
  const upTo = (n: number) => Math.floor((net * Math.min(n, quantity)) / quantity);
  return upTo(before + count) - upTo(before);
}

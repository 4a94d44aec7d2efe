// The shop's clock as plain arithmetic, without Intl: the calendar day and the wall time of
// datetime inputs. Apart from the formatters in shop-time.ts so that the shell every page loads
// (the footer's year) does not carry them.

/** Riyadh keeps UTC+3 all year (no daylight saving), so a shop-local wall time converts by a fixed offset. */
const SHOP_OFFSET = "+03:00";
const SHOP_OFFSET_MS = 3 * 60 * 60 * 1000;

function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The shop's calendar day as YYYY-MM-DD (file names of exports, the footer's year), for `now` by default. */
export function shopIsoDay(value: string | number | Date = Date.now()): string {
  const date = toDate(value) ?? new Date();
  return new Date(date.getTime() + SHOP_OFFSET_MS).toISOString().slice(0, 10);
}

/** A moment as the value of a datetime-local input, in the shop's wall time; empty for none. */
export function toShopLocalInput(iso: string | null): string {
  if (!iso) return "";
  const date = toDate(iso);
  return date ? new Date(date.getTime() + SHOP_OFFSET_MS).toISOString().slice(0, 16) : "";
}

/** A datetime-local value (the shop's wall time) as the ISO moment the API takes; empty stays null. */
export function fromShopLocalInput(value: string): string | null {
  const trimmed = value.trim();
  return trimmed ? `${trimmed}${SHOP_OFFSET}` : null;
}

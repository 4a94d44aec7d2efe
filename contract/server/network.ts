/**
 * A caller's network, as every per-network limit of the edge counts it: the reference backend's
 * (services/shared/rate-limit.ts) and the own server's (api/rum.ts) alike.
 */

/** The 16-bit groups of an IPv6 address (with `::` expanded), or null when it is not one. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two groups.
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    if ([a, b, c, d].some((n) => n > 255)) return null;
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const part = (s: string) => (s === "" ? [] : s.split(":"));
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

/**
 * The key a network address is counted under. An IPv4 address is itself; an IPv6 address is
 * its /64 prefix, since one subscriber is routinely given a whole /64 and could otherwise take a
 * fresh key for every request. IPv4-mapped IPv6 addresses count as their IPv4 address.
 */
export function networkKey(ip: string): string {
  const value = ip.trim();
  if (!value.includes(":")) return value || "unknown";
  const groups = ipv6Groups(value);
  if (!groups) return "unknown";
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/**
 * The caller's network as Cloudflare reports it (`cf-connecting-ip`, which Cloudflare sets and
 * a client cannot forge at the edge), keyed by `networkKey`; "unknown" when there is none
 * (local tools). The in-process storefront passes its own visitor's address on (worker/api/session.ts).
 */
export function clientIp(header: (name: string) => string | undefined): string {
  const raw = header("cf-connecting-ip")?.trim() || header("x-forwarded-for")?.split(",")[0]?.trim() || "";
  return raw ? networkKey(raw) : "unknown";
}

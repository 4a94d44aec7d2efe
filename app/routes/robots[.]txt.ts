import type { Route } from "./+types/robots[.]txt";
import { shopContext } from "../lib/context";

const PRIVATE = [
  "checkout",
  "shopping-cart",
  "orders",
  "profile",
  "auth",
  "proceed-payement",
  "payment-status",
  "order",
  // One shopper's saved products, and the lists they share by link.
  "wishlist",
  "reviews",
];

export function loader({ context }: Route.LoaderArgs) {
  const { origin } = context.get(shopContext);
  const lines = ["User-agent: *", "Allow: /"];
  for (const locale of ["en", "ar"]) for (const p of PRIVATE) lines.push(`Disallow: /${locale}/${p}`);
  lines.push("Disallow: /backend/", "Disallow: /api/", "", `Sitemap: ${origin}/sitemap.xml`, "");
  return new Response(lines.join("\n"), {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}

import { data } from "react-router";
import type { Route } from "./+types/not-found";

/** Unmatched paths under a locale: a non-fatal 404 `Page not found: {path}` inside the layout (spec §8). */
export function loader({ url }: Route.LoaderArgs) {
  throw data(`Page not found: ${url.pathname}`, { status: 404, statusText: "Not Found" });
}

export default function NotFound() {
  return null;
}

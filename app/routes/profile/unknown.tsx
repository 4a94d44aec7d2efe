import { data } from "react-router";
import type { Route } from "./+types/unknown";
import { authMiddleware } from "../../middleware/auth";

/** Any other section: the `auth` guard first (as for every section), then a 404 (spec §8). */
export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export function loader({ url }: Route.LoaderArgs) {
  throw data(`Page not found: ${url.pathname}`, { status: 404, statusText: "Not Found" });
}

export default function UnknownProfileSection() {
  return null;
}

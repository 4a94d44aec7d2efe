import { data } from "react-router";
import type { Route } from "./+types/error";
import { ErrorScreen } from "../components/ErrorScreen";
import { pageMeta } from "../lib/seo";

/** The generic error page; the common handler sends 404s here. `?status=` picks the status shown. */
export function loader({ url }: Route.LoaderArgs) {
  const raw = Number(url.searchParams.get("status"));
  const status = Number.isInteger(raw) && raw >= 400 && raw <= 599 ? raw : 404;
  return data({ status }, { status });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "error", noindex: true });

export default function ErrorPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="container">
      <ErrorScreen status={loaderData.status} />
    </div>
  );
}

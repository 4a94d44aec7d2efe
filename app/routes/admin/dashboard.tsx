import type { Route } from "./+types/dashboard";
import { consoleMeta } from "../../lib/console";
import { useT } from "../../lib/use-locale";

// Being built (issue 20): a helper replaces this module.
export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.title");

export default function Placeholder() {
  const t = useT();
  return <h1>{t("console.title")}</h1>;
}

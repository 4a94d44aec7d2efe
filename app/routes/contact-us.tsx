import type { Route } from "./+types/contact-us";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "contact" });

export default function ContactUs() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.contact.title")}</h1>
    </div>
  );
}

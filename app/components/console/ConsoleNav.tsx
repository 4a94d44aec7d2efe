import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { NavLink } from "../../lib/link";
import { roleAtLeast, type StaffRole } from "../../../contract/console";
import { useLocalePath, useT } from "../../lib/use-locale";

/** The console's sections, each with the weakest role that may open it (the API checks it again). */
export const CONSOLE_SECTIONS: { path: string; key: string; role: StaffRole; end?: boolean }[] = [
  { path: "/admin", key: "dashboard", role: "support", end: true },
  { path: "/admin/orders", key: "orders", role: "support" },
  { path: "/admin/shipments/remittances", key: "remittances", role: "manager" },
  { path: "/admin/customers", key: "customers", role: "support" },
  { path: "/admin/products", key: "products", role: "support" },
  { path: "/admin/reviews", key: "reviews", role: "support" },
  { path: "/admin/inventory", key: "inventory", role: "manager" },
  { path: "/admin/categories", key: "categories", role: "manager" },
  { path: "/admin/brands", key: "brands", role: "manager" },
  { path: "/admin/services", key: "services", role: "manager" },
  { path: "/admin/pages", key: "pages", role: "manager" },
  { path: "/admin/promo-codes", key: "promoCodes", role: "manager" },
  { path: "/admin/questions", key: "questions", role: "manager" },
  { path: "/admin/reports", key: "reports", role: "manager" },
  { path: "/admin/einvoicing", key: "einvoicing", role: "manager" },
  { path: "/admin/field-data", key: "fieldData", role: "support" },
  { path: "/admin/staff", key: "staff", role: "owner" },
  { path: "/admin/audit", key: "audit", role: "owner" },
  { path: "/admin/settings", key: "settings", role: "owner" },
];

/** The console's navigation: only the sections the staff member's role opens. */
export function ConsoleNav({ role }: { role: StaffRole }) {
  const t = useT();
  const to = useLocalePath();
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // On a phone the sections are a strip that scrolls sideways: keep the current one in view.
  useEffect(() => {
    nav.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [pathname]);
  return (
    <nav className="console-nav" aria-label={t("console.nav.label")} ref={nav}>
      <ul>
        {CONSOLE_SECTIONS.filter((s) => roleAtLeast(role, s.role)).map((s) => (
          <li key={s.path}>
            <NavLink to={to(s.path)} end={s.end} prefetch="intent">
              {t(`console.nav.${s.key}`)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

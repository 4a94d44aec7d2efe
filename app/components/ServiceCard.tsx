import { Link } from "../lib/link";
import type { Service } from "../lib/catalogue";
import { useLocalePath, useT } from "../lib/use-locale";
import { Price } from "./Price";

/** The icons the backend names for services; anything else gets the wrench. */
const ICONS: Record<string, string> = {
  wrench: "M14.7 6.3a4 4 0 0 0-5.4 5.4L3 18l3 3 6.3-6.3a4 4 0 0 0 5.4-5.4l-2.6 2.6-2.4-.6-.6-2.4z",
  tools: "M3 21l6-6M7 7l3 3M4 4l3 3-1 1-3-3zM14 4a4 4 0 0 0 5 5l2 2-8 8-4-4 8-8zM12 12l2 2",
  shield: "M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6zM9 12l2 2 4-4",
  transfer: "M4 8h13l-3-3M20 16H7l3 3",
  recycle: "M7 19H4l3-5M17 19h3l-3-5M9 5l3-2 3 2M8 14l-2-4M18 14l-2-4M10 19h4M9 5l-2 4M15 5l2 4",
  sparkles:
    "M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8zM19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z",
};

export function ServiceIcon({ name }: { name: string }) {
  const key = name in ICONS ? name : "wrench";
  return (
    <svg className="service-icon" aria-hidden="true" viewBox="0 0 24 24" width="40" height="40">
      <path
        d={ICONS[key]}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function ServiceCard({
  service,
  headingLevel = 3,
}: {
  service: Service & { price_label?: string };
  headingLevel?: 2 | 3;
}) {
  const t = useT();
  const to = useLocalePath();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="service-card">
      <ServiceIcon name={service.icon} />
      <Heading className="service-card__name">
        <Link to={to(`/services/${encodeURIComponent(service.slug)}`)} className="service-card__link">
          {service.name}
        </Link>
      </Heading>
      <p className="service-card__summary">{service.summary}</p>
      {service.price_from > 0 ? (
        <p className="service-card__price">
          <span className="muted">{t("services.from")} </span>
          <Price price={service.price_from} currency={service.currency} size="sm" label={service.price_label} />
        </p>
      ) : null}
    </article>
  );
}

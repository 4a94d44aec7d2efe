import type { Service } from "../lib/catalog";
import { useLocalePath, useT } from "../lib/use-locale";
import { Price } from "./Price";
import { SmartLink } from "./SmartLink";

/** The icons the backend names for services; anything else gets the wrench. */
const ICONS: Record<string, string> = {
  install: "M4 20h16M6 16l6-12 6 12M9 12h6",
  repair: "M14.7 6.3a4 4 0 0 0-5.4 5.4L3 18l3 3 6.3-6.3a4 4 0 0 0 5.4-5.4l-2.6 2.6-2.4-.6-.6-2.4z",
  warranty: "M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z",
  setup: "M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zM12 2v3M12 19v3M2 12h3M19 12h3",
  delivery: "M3 6h11v10H3zM14 10h4l3 3v3h-7M7 19a2 2 0 1 0 0-.1M17 19a2 2 0 1 0 0-.1",
};

export function ServiceIcon({ name }: { name: string }) {
  const key = Object.keys(ICONS).find((k) => name.includes(k)) ?? "repair";
  return (
    <svg className="service-icon" aria-hidden="true" viewBox="0 0 24 24" width="40" height="40">
      <path d={ICONS[key]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function ServiceCard({ service, headingLevel = 3 }: { service: Service; headingLevel?: 2 | 3 }) {
  const t = useT();
  const to = useLocalePath();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="service-card">
      <ServiceIcon name={service.icon} />
      <Heading className="service-card__name">
        <SmartLink to={to(`/services/${encodeURIComponent(service.slug)}`)} className="service-card__link">{service.name}</SmartLink>
      </Heading>
      <p className="service-card__summary">{service.summary}</p>
      {service.price_from > 0 ? (
        <p className="service-card__price">
          <span className="muted">{t("services.from")} </span>
          <Price price={service.price_from} currency={service.currency} size="sm" />
        </p>
      ) : null}
    </article>
  );
}

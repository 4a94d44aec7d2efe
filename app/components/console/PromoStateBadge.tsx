import type { PromoState } from "../../../contract/console-promos";
import { useT } from "../../lib/use-locale";

const TONES: Record<PromoState, string> = {
  // console-badge--ok's green is short of 4.5:1 at the badge's size: a darker one of our own.
  active: " console-badge--ok",
  scheduled: "",
  used_up: " console-badge--warn",
  paused: " console-badge--warn",
  expired: " console-badge--danger",
};

/** Where a promo code stands now (active, scheduled, used up, paused, expired), as a badge. */
export function PromoStateBadge({ state }: { state: PromoState }) {
  const t = useT();
  return <span className={`console-badge${TONES[state]}`}>{t(`console.promoCodes.states.${state}`)}</span>;
}

import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import type { Route } from "./+types/cart.restore";
import type { CartRestored } from "../../contract/cart-reminders";
import { browserApi } from "../lib/api/browser";
import { restoreRemindedCart } from "../lib/api/cart-reminders";
import { ApiError } from "../lib/api/errors";
import { ensureGuestId, useCart } from "../lib/cart";
import { Link } from "../lib/link";
import { pageMeta } from "../lib/seo";
import { useLocalePath, useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "cart", noindex: true });

/**
 * A cart reminder's link: the reminded cart comes back into this visitor's own cart, in any
 * browser (a new visitor is given a guest id first, as any cart is). Client only: the visitor's
 * identity lives in the tab's session storage. An expired or used-up link says so.
 */
export async function clientLoader({ params }: Route.ClientLoaderArgs): Promise<{ restored: CartRestored | null }> {
  const locale = params.locale === "ar" ? "ar" : "en";
  try {
    await ensureGuestId(locale);
    return { restored: (await restoreRemindedCart(browserApi(locale), params.token)).data };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 422)) return { restored: null };
    throw error;
  }
}
clientLoader.hydrate = true as const;

function Restoring() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("cartReminders.restore.title")}</h1>
      <p aria-busy="true">{t("cartReminders.restore.working")}</p>
    </div>
  );
}

export function HydrateFallback() {
  return <Restoring />;
}

export default function CartRestore({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const to = useLocalePath();
  const navigate = useNavigate();
  const { loadCart } = useCart();
  const { restored } = loaderData;
  const done = useRef(false);

  // The cart page shows the cart as it is now, with what came back and what could not.
  useEffect(() => {
    if (!restored || done.current) return;
    done.current = true;
    void loadCart().then(() => navigate(to("/shopping-cart"), { replace: true, state: { cartRestored: restored } }));
  }, [restored, loadCart, navigate, to]);

  if (restored) return <Restoring />;
  return (
    <div className="container page">
      <h1>{t("cartReminders.restore.goneTitle")}</h1>
      <p role="alert">{t("cartReminders.restore.gone")}</p>
      <p>
        <Link to={to("/")}>{t("cartReminders.restore.shop")}</Link>
      </p>
    </div>
  );
}

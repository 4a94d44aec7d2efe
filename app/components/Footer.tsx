import { shopIsoDay } from "../../contract/shop-clock";
import { Link } from "../lib/link";
import { useLocalePath, useT } from "../lib/use-locale";

/** `name`: the store's name as the owner set it (store settings), else the built-in one. */
export function Footer({ name }: { name: string }) {
  const t = useT();
  const to = useLocalePath();
  return (
    <footer id="site-footer" className="site-footer">
      <div className="container site-footer__grid">
        <div>
          <p className="site-footer__brand">{name}</p>
          <p>{t("footer.about", { name })}</p>
        </div>
        <nav aria-label={t("footer.shop")}>
          <h2>{t("footer.shop")}</h2>
          <ul>
            <li>
              <Link to={to("/products")}>{t("nav.products")}</Link>
            </li>
            <li>
              <Link to={to("/product-details")}>{t("pages.productFinder.title")}</Link>
            </li>
            <li>
              <Link to={to("/services")}>{t("nav.services")}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label={t("footer.help")}>
          <h2>{t("footer.help")}</h2>
          <ul>
            <li>
              <Link to={to("/track-order")}>{t("nav.trackOrder")}</Link>
            </li>
            <li>
              <Link to={to("/contact-us")}>{t("nav.contact")}</Link>
            </li>
            <li>
              <Link to={to("/page")}>{t("nav.pages")}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label={t("footer.company")}>
          <h2>{t("footer.company")}</h2>
          <ul>
            <li>
              <Link to={to("/about-us")}>{t("nav.about")}</Link>
            </li>
            <li>
              <Link to={to("/privacy-policy")}>{t("nav.privacy")}</Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="container site-footer__legal">
        <p>{t("footer.rights", { year: shopIsoDay().slice(0, 4), name })}</p>
        <p>{t("footer.vat")}</p>
      </div>
    </footer>
  );
}

import { useEffect, useRef, useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { BULK_SHIP_MAX, CARRIER_IDS, CARRIER_NAMES, type BulkShipResult } from "../../../contract/shipping";
import { toast } from "../../client/toast";
import { browserApi } from "../../lib/api/browser";
import { shipOrders, shippingDocumentHref } from "../../lib/api/console-shipments";
import { handleBrowserError } from "../../lib/browser-errors";
import { countOf } from "../../lib/plural";
import { useLocale, useT } from "../../lib/use-locale";

/**
 * The orders list's shipping actions for the orders ticked in it (managers and owners): create one
 * parcel of everything left for each, print their labels, print one pick list for them all; and
 * today's manifest of each carrier, to hand over with the parcels. The labels are asked for by
 * order number: the list's rows do not carry their parcels.
 */
export function OrdersShippingBar({
  selected,
  today,
  onClear,
}: {
  selected: string[];
  /** The shop's day (YYYY-MM-DD) the page was loaded on: whose manifests to link. */
  today: string;
  onClear: () => void;
}) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<BulkShipResult[] | null>(null);
  const report = useRef<HTMLElement>(null);
  const none = selected.length === 0;
  const tooMany = selected.length > BULK_SHIP_MAX;
  useEffect(() => {
    if (results) report.current?.focus();
  }, [results]);

  const create = async () => {
    if (busy || none || tooMany) return;
    setBusy(true);
    const id = toast.loading(t("console.saving"));
    try {
      const answer = await shipOrders(browserApi(locale), selected);
      const made = answer.data.filter((r) => r.error === null).length;
      toast.success(countOf(t, locale, "console.bulkShip.done", made), { id });
      setResults(answer.data);
      await revalidator.revalidate();
    } catch (error) {
      toast.dismiss(id);
      handleBrowserError(error, locale, (to) => void navigate(to));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="console-panel console-bulk-ship" data-bulk-ship>
      <div className="console-bulk-ship__actions" role="group" aria-label={t("console.bulkShip.label")}>
        <p className="console-bulk-ship__count" aria-live="polite">
          {none ? t("console.bulkShip.noneChosen") : countOf(t, locale, "console.bulkShip.chosen", selected.length)}
        </p>
        <button
          type="button"
          className="button button--primary"
          disabled={none || tooMany || busy}
          onClick={() => void create()}
        >
          {t("console.bulkShip.create")}
        </button>
        {none ? null : (
          <>
            <a
              className="button"
              href={shippingDocumentHref(locale, { document: "labels.pdf", orders: selected })}
              target="_blank"
              rel="noopener"
            >
              {t("console.bulkShip.labels")}
            </a>
            <a
              className="button"
              href={shippingDocumentHref(locale, { document: "pick-list.pdf", orders: selected })}
              target="_blank"
              rel="noopener"
            >
              {t("console.bulkShip.pickList")}
            </a>
            <button type="button" className="button button--ghost" onClick={onClear}>
              {t("console.bulkShip.clear")}
            </button>
          </>
        )}
      </div>
      {tooMany ? (
        <p className="field__error" role="alert">
          {t("console.bulkShip.tooMany", { max: BULK_SHIP_MAX })}
        </p>
      ) : null}
      <p className="console-bulk-ship__manifests">
        <span>{t("console.bulkShip.manifests")}</span>{" "}
        {CARRIER_IDS.map((carrier) => (
          <a
            key={carrier}
            href={shippingDocumentHref(locale, { document: "manifest.pdf", carrier, day: today })}
            target="_blank"
            rel="noopener"
          >
            {t("console.bulkShip.manifestOf", { carrier: CARRIER_NAMES[carrier][locale] })}
          </a>
        ))}
      </p>
      {results ? (
        <section
          ref={report}
          tabIndex={-1}
          className="console-bulk-ship__results"
          aria-labelledby="bulk-ship-results"
          data-bulk-results
        >
          <h2 id="bulk-ship-results">{t("console.bulkShip.results")}</h2>
          <ul className="console-list">
            {results.map((r) => (
              <li key={r.number} data-bulk-result={r.error ? "error" : "ok"}>
                <bdi dir="ltr">{r.number}</bdi>
                {r.error ? (
                  <span className="console-badge console-badge--danger">{r.error}</span>
                ) : (
                  <span>
                    {t("console.bulkShip.waybills")}{" "}
                    {r.waybills.map((w, i) => (
                      <span key={w}>
                        {i ? ", " : null}
                        <bdi dir="ltr">{w}</bdi>
                      </span>
                    ))}
                  </span>
                )}
              </li>
            ))}
          </ul>
          <button type="button" className="button button--ghost" onClick={() => setResults(null)}>
            {t("console.bulkShip.closeResults")}
          </button>
        </section>
      ) : null}
    </div>
  );
}

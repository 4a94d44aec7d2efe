import type { ConsoleOrderMessage } from "../../../contract/console-orders";
import { formatDate } from "../../lib/orders";
import { useLocale, useT } from "../../lib/use-locale";

/**
 * The messages an order owed its shopper and where each stands: sent, on its way, or
 * dead after the queue's retries, with the provider's last error; a manager sends a dead one again.
 */
export function OrderMessages({
  messages,
  onResend,
  cashOnDelivery = false,
}: {
  messages: ConsoleOrderMessage[];
  /** A cash-on-delivery order's "paid" message is its confirmation (the cash comes at the door). */
  cashOnDelivery?: boolean;
  /** Absent for staff who may not send again. */
  onResend?: (message: ConsoleOrderMessage) => void;
}) {
  const t = useT();
  const locale = useLocale();
  return (
    <section className="console-panel console-order__wide" aria-labelledby="order-messages">
      <h2 id="order-messages">{t("console.orders.messages.title")}</h2>
      {messages.length ? (
        <div
          className="console-table__scroll"
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region is focusable (axe: scrollable-region-focusable)
          tabIndex={0}
          role="region"
          aria-label={t("console.orders.messages.title")}
        >
          <table>
            <thead>
              <tr>
                <th scope="col">{t("console.orders.messages.kind")}</th>
                <th scope="col">{t("console.orders.messages.channel")}</th>
                <th scope="col">{t("console.orders.messages.status")}</th>
                <th scope="col">{t("console.orders.messages.attempts")}</th>
                <th scope="col">{t("console.orders.messages.when")}</th>
                {onResend ? (
                  <th scope="col">
                    <span className="visually-hidden">{t("console.orders.messages.actions")}</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {messages.map((m) => (
                <tr key={m.id} data-message-status={m.status}>
                  <td>
                    {t(
                      `console.orders.messages.kinds.${cashOnDelivery && m.kind === "paid" ? "cod_confirmed" : m.kind}`,
                    )}
                  </td>
                  <td>
                    {t(
                      `console.orders.messages.channels.${m.via === "whatsapp" ? "whatsapp" : m.via === "sms" ? "smsFallback" : m.channel}`,
                    )}
                  </td>
                  <td>
                    {t(`console.orders.messages.statuses.${m.status}`)}
                    {m.via === "whatsapp" && m.provider_status ? (
                      <span className="console-hint">
                        {" "}
                        {t(`console.orders.messages.whatsappStatuses.${m.provider_status}`)}
                      </span>
                    ) : null}
                    {m.status !== "sent" && m.last_error ? (
                      <span className="console-hint">
                        {" "}
                        <bdi dir="ltr">{m.last_error}</bdi>
                      </span>
                    ) : null}
                  </td>
                  <td>{m.attempts}</td>
                  <td>
                    <time dateTime={m.sent_at ?? m.created_at}>
                      {formatDate(m.sent_at ?? m.created_at, locale, true)}
                    </time>
                  </td>
                  {onResend ? (
                    <td>
                      {m.status === "dead" ? (
                        <button type="button" className="button button--ghost" onClick={() => onResend(m)}>
                          {t("console.orders.messages.resend")}
                        </button>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="console-hint">{t("console.orders.messages.none")}</p>
      )}
    </section>
  );
}

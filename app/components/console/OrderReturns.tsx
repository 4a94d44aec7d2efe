import { useState } from "react";
import { RETURN_NOTE_MAX, type ConsoleReturn, type ReturnAction } from "../../../contract/returns";
import { useRouteAction } from "../form/useRouteAction";
import { formatMoney } from "../../lib/money";
import { formatDate } from "../../lib/orders";
import { useLocale, useT } from "../../lib/use-locale";
import { ConfirmDialog } from "./ConfirmDialog";
import { lineKey } from "../../../contract/cart";

const BADGE: Record<ConsoleReturn["status"], string> = {
  requested: "warn",
  approved: "warn",
  received: "warn",
  refunded: "ok",
  rejected: "danger",
};

/** Actions that change stock or money, or refuse the shopper, are confirmed first. */
const CONFIRMED: ReturnAction[] = ["reject", "receive", "refund"];

/**
 * An order's returns in the console: each with its lines, state and the steps now
 * valid for the caller (approve / reject, mark received, refund); support sees them read-only.
 * Each step goes to the order page's route action as its `return` intent.
 */
export function OrderReturns({ currency, returns }: { currency: string; returns: ConsoleReturn[] }) {
  const t = useT();
  const locale = useLocale();
  const [asking, setAsking] = useState<{ ret: ConsoleReturn; action: ReturnAction } | null>(null);
  const [note, setNote] = useState("");
  const stepping = useRouteAction();
  const busy = stepping.busy;
  const money = (n: number) => formatMoney(n, currency, locale);

  const run = (ret: ConsoleReturn, action: ReturnAction, rejectNote: string | null = null) => {
    setAsking(null);
    void stepping.submit(
      "return",
      { return_id: ret.id, step: action, note: rejectNote },
      {
        loading: t("console.saving"),
        success: () => t(`console.orders.returns.done.${action}`),
        messageIsFailure: true,
      },
    );
  };

  const press = (ret: ConsoleReturn, action: ReturnAction) => {
    if (!CONFIRMED.includes(action)) return run(ret, action);
    setNote("");
    setAsking({ ret, action });
  };

  const label = (ret: ConsoleReturn, action: ReturnAction) =>
    t(`console.orders.returns.actions.${action}`, { amount: money(ret.amount) });

  return (
    <section className="console-panel console-order__wide console-returns" aria-labelledby="order-returns">
      <h2 id="order-returns">{t("console.orders.returns.title")}</h2>
      {returns.length === 0 ? <p className="console-hint">{t("console.orders.returns.none")}</p> : null}
      {returns.map((ret) => (
        <article key={ret.id} className="console-return" aria-labelledby={`return-${ret.id}`}>
          <header className="console-return__head">
            <h3 id={`return-${ret.id}`}>
              {t("console.orders.returns.label", { id: "" })}
              <bdi dir="ltr">{ret.id}</bdi>
            </h3>
            <span className={`console-badge console-badge--${BADGE[ret.status]}`}>
              {t(`orders.returns.statuses.${ret.status}`)}
            </span>
            <span className="console-hint">
              {t("console.orders.returns.requestedOn", { date: formatDate(ret.created_at, locale, true) })}
            </span>
          </header>
          {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region is focusable (axe: scrollable-region-focusable) */}
          <div className="console-table__scroll" tabIndex={0} role="region" aria-labelledby={`return-${ret.id}`}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("console.orders.returns.product")}</th>
                  <th scope="col" className="is-numeric">
                    {t("console.orders.returns.quantity")}
                  </th>
                  <th scope="col">{t("console.orders.returns.reason")}</th>
                  <th scope="col" className="is-numeric">
                    {t("console.orders.returns.amount")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {ret.items.map((line) => (
                  <tr key={lineKey(line)}>
                    <td>
                      <bdi>{line.name}</bdi>
                    </td>
                    <td className="is-numeric">{line.quantity}</td>
                    <td>
                      {t(`orders.returns.reasons.${line.reason}`)}
                      {line.note ? (
                        <>
                          {" · "}
                          <q>
                            <bdi>{line.note}</bdi>
                          </q>
                        </>
                      ) : null}
                    </td>
                    <td className="is-numeric">
                      <bdi>{money(line.amount)}</bdi>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {ret.decided_by || ret.decision_note || ret.refund_id ? (
            <p className="console-hint">
              {ret.decided_by ? t("console.orders.returns.decidedBy", { email: ret.decided_by }) : null}
              {ret.decision_note ? (
                <>
                  {" · "}
                  <q>
                    <bdi>{ret.decision_note}</bdi>
                  </q>
                </>
              ) : null}
              {ret.refund_id ? (
                <>
                  {" · "}
                  {t("console.orders.returns.refundId")} <bdi dir="ltr">{ret.refund_id}</bdi>
                </>
              ) : null}
            </p>
          ) : null}
          {ret.actions.length ? (
            <div className="console-actions" role="group" aria-label={t("console.table.actions")}>
              {ret.actions.map((action) => (
                <button
                  key={action}
                  type="button"
                  disabled={busy}
                  className={action === "reject" ? "button button--danger" : "button"}
                  onClick={() => press(ret, action)}
                >
                  {label(ret, action)}
                </button>
              ))}
            </div>
          ) : null}
        </article>
      ))}
      <ConfirmDialog
        open={asking !== null}
        title={
          asking
            ? asking.action === "refund"
              ? t("console.orders.returns.refundTitle", { amount: money(asking.ret.amount) })
              : t(`console.orders.returns.${asking.action}Title`)
            : ""
        }
        confirmLabel={asking ? label(asking.ret, asking.action) : ""}
        danger={asking?.action !== "receive"}
        onConfirm={() =>
          asking && run(asking.ret, asking.action, asking.action === "reject" ? note.trim() || null : null)
        }
        onCancel={() => setAsking(null)}
      >
        {asking ? <p>{t(`console.orders.returns.${asking.action}Text`)}</p> : null}
        {asking?.action === "reject" ? (
          <div className="field">
            <label htmlFor="return-reject-note">{t("console.orders.returns.rejectNote")}</label>
            <textarea
              id="return-reject-note"
              rows={3}
              maxLength={RETURN_NOTE_MAX}
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
          </div>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}

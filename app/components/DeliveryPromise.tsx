import { useEffect, useId, useState, type FormEvent } from "react";
import { CITY_COOKIE, DELIVERY_PROMISE_PATH, type DeliveryPromiseAnswer } from "../../contract/delivery-promise";
import { browserApi } from "../lib/api/browser";
import { useLocale, useT } from "../lib/use-locale";
import { Stylesheet } from "./Stylesheet";
import deliveryPromiseCss from "../styles/delivery-promise.css?url";

/**
 * "Arrives by Tuesday 9 December" for the shopper's city, on the product page and in the cart.
 *
 * Why it is fetched in the browser and not rendered with the page: the product page is the same
 * for every anonymous visitor and is kept as such (the page cache keeps it for up to a
 * minute, worker/page-cache.ts, under the catalogue version; the service worker keeps a copy for
 * offline use, scripts/build-sw.ts). The promise changes with the clock (the daily cut-off, the
 * next working day) and with the shopper's city, so baked into that HTML it would be wrong for the
 * next visitor or after the cut-off. The page renders an empty line of fixed height (no layout
 * shift), and this component asks GET /backend/delivery/promise, which is never cached (no-store,
 * no edge cache, no service-worker rule), with the city the shopper chose (cookie `city`); a
 * signed-in shopper's default address wins on the backend. It costs one small request after
 * hydration and no Intl code in the page: the backend words the date.
 */

/** The city kept in the cookie, or undefined. */
function chosenCity(): string | undefined {
  for (const part of document.cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === CITY_COOKIE) {
      try {
        return decodeURIComponent(rest.join("=")) || undefined;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Keeps the chosen city for a year (not secret: it says nothing but a city). */
function keepCity(city: string): void {
  const secure = location.protocol === "https:" ? "; secure" : "";
  document.cookie = `${CITY_COOKIE}=${encodeURIComponent(city)}; path=/; max-age=31536000; samesite=lax${secure}`;
}

export function DeliveryPromise() {
  const t = useT();
  const locale = useLocale();
  const id = useId();
  // Read in the browser only; nothing rendered depends on it before the answer comes, so the
  // server's HTML and the first render in the browser agree.
  const [city, setCity] = useState<string | undefined>(() =>
    typeof document === "undefined" ? undefined : chosenCity(),
  );
  const [answer, setAnswer] = useState<DeliveryPromiseAnswer | null>(null);
  const [choosing, setChoosing] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    browserApi(locale)
      .get<DeliveryPromiseAnswer>(DELIVERY_PROMISE_PATH, { query: { city }, signal: controller.signal })
      .then((res) => {
        setAnswer(res.data);
        setFailed(false);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => controller.abort();
  }, [city, locale]);

  // Opening the chooser puts the reader on it.
  useEffect(() => {
    if (choosing) document.getElementById(`${id}-city`)?.focus();
  }, [choosing, id]);

  const choose = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get("city");
    if (typeof value !== "string" || !value) return;
    keepCity(value);
    setCity(value);
    setChoosing(false);
  };

  const cityLabel = answer?.cities.find((c) => c.value === answer.city)?.label ?? answer?.city ?? "";
  const canChoose = answer !== null && answer.source !== "address";
  // The chooser opens on the shopper's click only: a page that grew by itself once the answer came
  // would move what is below it (a layout shift); one line of text stays one line.
  const showChooser = answer !== null && canChoose && choosing;

  return (
    <div className="delivery-promise" data-city={answer?.city ?? ""}>
      <Stylesheet href={deliveryPromiseCss} />
      {/* The line keeps its height while the answer comes, so nothing below moves. */}
      <p className="delivery-promise__line" aria-live="polite" aria-busy={answer === null && !failed}>
        {answer?.promise ? (
          <>
            <strong className="delivery-promise__text">{answer.promise.text}</strong>{" "}
            <span className="muted">
              {answer.source === "address"
                ? t("deliveryPromise.toAddress", { city: cityLabel })
                : t("deliveryPromise.toCity", { city: cityLabel })}
            </span>
          </>
        ) : answer ? (
          <span className="muted">{t("deliveryPromise.chooseCity")}</span>
        ) : null}
        {answer && canChoose && !choosing ? (
          <>
            {" "}
            <button type="button" className="delivery-promise__change" onClick={() => setChoosing(true)}>
              {t(answer.promise ? "deliveryPromise.change" : "deliveryPromise.pick")}
            </button>
          </>
        ) : null}
      </p>
      {showChooser ? (
        <form id={`${id}-chooser`} className="delivery-promise__chooser" onSubmit={choose}>
          <label htmlFor={`${id}-city`}>{t("deliveryPromise.cityLabel")}</label>
          <select
            id={`${id}-city`}
            name="city"
            defaultValue={answer.cities.some((c) => c.value === answer.city) ? (answer.city ?? "") : ""}
            required
          >
            <option value="" disabled>
              {t("deliveryPromise.pick")}
            </option>
            {answer.cities.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
          <button type="submit" className="button">
            {t("deliveryPromise.show")}
          </button>
        </form>
      ) : null}
    </div>
  );
}

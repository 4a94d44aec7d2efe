import type { Address } from "../../../contract/addresses";
import { useLocale, useT } from "../../lib/use-locale";
import { NationalAddress } from "../NationalAddress";

/** A signed-in visitor's saved addresses to deliver to, or a new one. */
export function AddressChoice({
  addresses,
  choice,
  onChoose,
}: {
  addresses: Address[];
  choice: number | "new";
  onChoose: (choice: number | "new") => void;
}) {
  const t = useT();
  const locale = useLocale();
  return (
    <div className="choice-list" role="radiogroup" aria-label={t("checkout.savedAddresses")}>
      {addresses.map((a) => (
        <label key={a.id} className="choice">
          <input
            type="radio"
            name="address_choice"
            value={a.id}
            checked={choice === a.id}
            onChange={() => onChoose(a.id)}
          />
          <span className="choice__body">
            <span className="choice__title">
              {a.label || a.name}
              {a.is_default ? <span className="status-badge">{t("checkout.defaultAddress")}</span> : null}
            </span>
            <span className="choice__text">
              {a.name} · <bdi>{a.phone}</bdi>
            </span>
            <span className="choice__text">
              {[a.street, a.building, a.district, a.city, a.postal_code]
                .filter(Boolean)
                .join(locale === "ar" ? "، " : ", ")}
            </span>
            <NationalAddress address={a} className="choice__text" />
          </span>
        </label>
      ))}
      <label className="choice">
        <input
          type="radio"
          name="address_choice"
          value="new"
          checked={choice === "new"}
          onChange={() => onChoose("new")}
        />
        <span className="choice__body">
          <span className="choice__title">{t("checkout.newAddress")}</span>
        </span>
      </label>
    </div>
  );
}

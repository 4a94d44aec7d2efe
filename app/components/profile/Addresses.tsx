import { lazy, Suspense, useState } from "react";
import { useNavigate } from "react-router";
import type { Address, AddressValues } from "../form/AddressForm";
import { addAddress, deleteAddress, listAddresses, updateAddress } from "../../lib/api/account";
import { browserApi } from "../../lib/api/browser";
import { handleBrowserError } from "../../lib/browser-errors";
import { useLocale, useT } from "../../lib/use-locale";
import { NationalAddress } from "../NationalAddress";

/** The address form loads when it is opened, keeping the section's first load small. */
const AddressForm = lazy(() => import("../form/AddressForm").then((m) => ({ default: m.AddressForm })));

type Editing = { mode: "none" } | { mode: "add" } | { mode: "edit"; id: number };

function toPayload(values: AddressValues) {
  return { ...values, phone: values.phone, is_default: Boolean(values.is_default) };
}

/** The profile's addresses section: the list, add, edit and delete (DESIGN §4). */
export function Addresses({ initial }: { initial: Address[] }) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const [addresses, setAddresses] = useState<Address[]>(initial);
  const [editing, setEditing] = useState<Editing>(initial.length ? { mode: "none" } : { mode: "add" });
  const [confirming, setConfirming] = useState<number | null>(null);
  const [status, setStatus] = useState("");

  const reload = async () => {
    const res = await listAddresses<Address>(browserApi(locale));
    setAddresses(Array.isArray(res.data) ? res.data : []);
  };

  const save = async (values: AddressValues, id?: number) => {
    const api = browserApi(locale);
    if (id === undefined) await addAddress(api, toPayload(values));
    else await updateAddress(api, id, toPayload(values));
    await reload();
    setEditing({ mode: "none" });
    setStatus(t(id === undefined ? "address.added" : "address.updated"));
  };

  const remove = async (id: number) => {
    try {
      await deleteAddress(browserApi(locale), id);
      await reload();
      setStatus(t("address.deleted"));
    } catch (error) {
      // Through the common handler, a 404 too (spec §8: one already deleted elsewhere redirects to /error).
      handleBrowserError(error, locale, (to) => void navigate(to));
      await reload().catch(() => undefined);
    } finally {
      setConfirming(null);
    }
  };

  return (
    <section className="profile-addresses" aria-labelledby="addresses-title">
      <div className="section__head">
        <h2 id="addresses-title">{t("address.title")}</h2>
        {editing.mode === "none" ? (
          <button type="button" className="button button--primary" onClick={() => setEditing({ mode: "add" })}>
            {t("address.add")}
          </button>
        ) : null}
      </div>
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {editing.mode === "add" ? (
        <div className="card profile-card">
          <h3>{t("address.newTitle")}</h3>
          <Suspense fallback={<p className="muted">{t("app.loading")}</p>}>
            <AddressForm
              idPrefix="new-address"
              submitLabel={t("address.save")}
              savingLabel={t("address.saving")}
              onSave={(values) => save(values)}
              onCancel={addresses.length ? () => setEditing({ mode: "none" }) : undefined}
            />
          </Suspense>
        </div>
      ) : null}
      {addresses.length === 0 && editing.mode !== "add" ? <p className="muted">{t("address.empty")}</p> : null}
      <ul className="address-list">
        {addresses.map((a) => (
          <li key={a.id} className="card address-card">
            {editing.mode === "edit" && editing.id === a.id ? (
              <>
                <h3>{t("address.editTitle")}</h3>
                <Suspense fallback={<p className="muted">{t("app.loading")}</p>}>
                  <AddressForm
                    idPrefix={`address-${a.id}`}
                    initial={a}
                    submitLabel={t("address.save")}
                    savingLabel={t("address.saving")}
                    onSave={(values) => save(values, a.id)}
                    onCancel={() => setEditing({ mode: "none" })}
                  />
                </Suspense>
              </>
            ) : (
              <>
                <div className="address-card__head">
                  <h3 className="address-card__title">{a.label || a.name}</h3>
                  {a.is_default ? (
                    <span className="profile-badge profile-badge--ok">{t("address.default")}</span>
                  ) : null}
                </div>
                <address className="address-card__body">
                  <span>{a.name}</span>
                  <span>{[a.street, a.building].filter(Boolean).join(", ")}</span>
                  <span>{[a.district, a.city, a.postal_code].filter(Boolean).join(", ")}</span>
                  <NationalAddress address={a} />
                  <bdi dir="ltr">{a.phone}</bdi>
                  {a.notes ? <span className="muted">{a.notes}</span> : null}
                </address>
                <div className="address-card__actions">
                  <button
                    type="button"
                    className="button"
                    onClick={() => setEditing({ mode: "edit", id: a.id })}
                    aria-label={`${t("address.edit")}: ${a.label || a.name}`}
                  >
                    {t("address.edit")}
                  </button>
                  {confirming === a.id ? (
                    <>
                      <button type="button" className="button button--danger" onClick={() => void remove(a.id)}>
                        {t("address.confirmDelete")}
                      </button>
                      <button type="button" className="button button--ghost" onClick={() => setConfirming(null)}>
                        {t("address.cancel")}
                      </button>
                    </>
                  ) : (
                    <button
                      type="button"
                      className="button button--ghost"
                      onClick={() => setConfirming(a.id)}
                      aria-label={`${t("address.delete")}: ${a.label || a.name}`}
                    >
                      {t("address.delete")}
                    </button>
                  )}
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

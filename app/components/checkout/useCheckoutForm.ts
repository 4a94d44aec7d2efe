import { useAtomValue } from "jotai";
import { useEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { Address } from "../../../contract/addresses";
import type { NewAddress } from "../../../contract/checkout";
import { buildingAsTyped, nationalCodeText, shortAddressMatches } from "../../../contract/inputs";
import { getProfile, listAddresses } from "../../lib/api/account";
import { browserApi } from "../../lib/api/browser";
import { placeOrder } from "../../lib/api/checkout";
import { ApiError, type FieldError } from "../../lib/api/errors";
import { handleBrowserError } from "../../lib/browser-errors";
import { useChallenge } from "../../lib/challenge";
import { useCart } from "../../lib/cart";
import { newIdempotencyKey, useCheckoutOptions, useSettled } from "../../lib/checkout";
import { formRules, type Validator } from "../../lib/forms";
import { checkoutRules, type AddressLabels } from "../../lib/input-rules";
import { readStored } from "../../lib/tab-storage";
import { useLocale, useT } from "../../lib/use-locale";
import { cartListAtom, totalQuantityAtom } from "../../state/cart";

/** The checkout form's fields: a delivery address's, a guest's email, and a business buyer's. */
export type FieldName = keyof AddressLabels | "email" | "buyer_company" | "buyer_vat_number";
type Values = Record<FieldName, string>;

const EMPTY: Values = {
  email: "",
  name: "",
  phone: "",
  city: "",
  district: "",
  street: "",
  short_address: "",
  building: "",
  additional_number: "",
  postal_code: "",
  notes: "",
  buyer_company: "",
  buyer_vat_number: "",
};

/**
 * The saved addresses of a signed-in visitor (default first), the one chosen or "new", and the
 * account's email handed to `onEmail`.
 */
function useSavedAddresses(signedIn: boolean, onEmail: (email: string) => void) {
  const locale = useLocale();
  const [addresses, setAddresses] = useState<Address[] | null>(signedIn ? null : []);
  const [choice, setChoice] = useState<number | "new">("new");
  useEffect(() => {
    if (!signedIn) return;
    const api = browserApi(locale);
    listAddresses(api)
      .then((res) => {
        const list = Array.isArray(res.data)
          ? [...res.data].sort((a, b) => Number(b.is_default) - Number(a.is_default))
          : [];
        setAddresses(list);
        if (list[0]) setChoice(list[0].id);
      })
      .catch(() => setAddresses([]));
    getProfile(api)
      .then((res) => onEmail(res.data?.email ?? ""))
      .catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once per visitor and language
  }, [signedIn, locale]);
  return { addresses, choice, setChoice };
}

/**
 * The checkout form's state and its submit: the typed values and their checks (spec §5: a
 * message shows once its field is dirty, all of them after a submit), the saved addresses, the
 * methods chosen, the options and totals for the delivery city, and placing the order with one
 * idempotency key per attempt, so a doubled submit makes one order.
 */
/**
 * The building number a newly typed short address gives, when the building field is empty or held
 * what the short address gave before: the short address is the quick way to give both.
 */
function buildingFrom(values: Values, shortAddress: string): Partial<Values> {
  const building = buildingAsTyped(values.building, values.short_address, shortAddress);
  return building ? { building } : {};
}

/** A short address naming another building than the one typed: the short address's message, else "". */
function sameBuilding(values: Values, t: (key: string) => string): string {
  const typed = { building: nationalCodeText(values.building), short_address: nationalCodeText(values.short_address) };
  return shortAddressMatches(typed) ? "" : t("address.shortAddressInvalid");
}

export function useCheckoutForm(onPlaced: (orderNumber: string) => void) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const cartActions = useCart();
  const cart = useAtomValue(cartListAtom);
  const count = useAtomValue(totalQuantityAtom);
  const rules = useMemo(() => formRules(t), [t]);
  const signedIn = useMemo(() => Boolean(readStored("token")), []);

  const [values, setValues] = useState<Values>(EMPTY);
  /** Fields the visitor changed: their messages show (spec §5, "after a field is dirty"). */
  const [dirty, setDirty] = useState<ReadonlySet<FieldName>>(new Set());
  const [submitted, setSubmitted] = useState(0);
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  /** A form-level message from the server (or the network) for the last attempt. */
  const [formMessage, setFormMessage] = useState("");
  const [busy, setBusy] = useState(false);
  /** "Buying for a business?" is open: a standard tax invoice in the company's name. */
  const [business, setBusiness] = useState(false);
  const saved = useSavedAddresses(signedIn, (email) => setValues((v) => (v.email ? v : { ...v, email })));
  const { addresses, choice: addressChoice } = saved;
  const [shipping, setShipping] = useState<string | undefined>(undefined);
  const [payment, setPayment] = useState<string | undefined>(undefined);
  const keyRef = useRef<string>(newIdempotencyKey());
  // A busy network's person check: the order waits for its token, under the same key.
  const challenge = useChallenge();

  const revision = `${cart.total}|${count}|${cart.promo?.code ?? ""}`;
  // The delivery city picks the shipping zone: the quote follows it as the shopper types or picks
  // a saved address. Placing the order charges the zone of the same city, worked out again there.
  const deliveryCity =
    addressChoice === "new" ? values.city.trim() : (addresses?.find((a) => a.id === addressChoice)?.city ?? "");
  const quotedCity = useSettled(deliveryCity, 400);
  const { options, failed, retry } = useCheckoutOptions(locale, revision, shipping, true, quotedCity || undefined);

  // The first shipping and payment methods are chosen until the visitor picks others.
  useEffect(() => {
    if (!options) return;
    if (!shipping && options.shipping_methods[0]) setShipping(options.shipping_methods[0].id);
    if (!payment && options.payment_methods[0]) setPayment(options.payment_methods[0].id);
  }, [options, shipping, payment]);

  const labels: Record<FieldName, string> = {
    email: t("checkout.email"),
    name: t("checkout.name"),
    phone: t("checkout.phone"),
    city: t("checkout.city"),
    district: t("checkout.district"),
    street: t("checkout.street"),
    short_address: t("checkout.shortAddress"),
    // Required of a business buyer: named without the "(optional)" the shopper's form says.
    building: business ? t("address.building") : t("checkout.building"),
    additional_number: t("checkout.additionalNumber"),
    postal_code: business ? t("address.postalCode") : t("checkout.postalCode"),
    notes: t("checkout.notes"),
    buyer_company: t("checkout.business.company"),
    buyer_vat_number: t("checkout.business.vatNumber"),
  };
  const usingNewAddress = addressChoice === "new";
  const [phoneCheck, setPhoneCheck] = useState({ value: "", message: "" });
  useEffect(() => {
    let current = true;
    void rules
      .phone()(values.phone)
      .then((message) => {
        if (current) setPhoneCheck({ value: values.phone, message });
      });
    return () => {
      current = false;
    };
  }, [values.phone, rules]);
  // The contract's checkout rules (contract/inputs.ts): the same limits the backend checks.
  const check = useMemo(
    () => checkoutRules(t, labels),
    // The labels follow `t`: they change only with the locale.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  // A standard invoice carries the buyer's national address: its building number and postal code.
  const businessCode = (name: "building" | "postal_code"): Validator[] =>
    business
      ? [
          (value) =>
            value?.trim()
              ? ""
              : t(name === "building" ? "checkout.business.buildingRequired" : "checkout.business.postalCodeRequired"),
          check[name],
        ]
      : [check[name]];
  const validators: Partial<Record<FieldName, Validator[]>> = {
    ...(signedIn ? {} : { email: [check.email] }),
    ...(business
      ? {
          buyer_company: [rules.required(labels.buyer_company), check.buyer_company],
          buyer_vat_number: [rules.required(labels.buyer_vat_number), check.buyer_vat_number],
        }
      : {}),
    ...(usingNewAddress
      ? {
          name: [check.name],
          // The numbering check loads libphonenumber's metadata first; its answer is kept in phoneCheck.
          phone: [check.phone, () => phoneCheck.message],
          city: [check.city],
          district: [check.district],
          street: [check.street],
          short_address: [check.short_address, () => sameBuilding(values, t)],
          building: businessCode("building"),
          additional_number: [check.additional_number],
          postal_code: businessCode("postal_code"),
          notes: [check.notes],
        }
      : {}),
  };
  const chosen = addressChoice === "new" ? null : addresses?.find((a) => a.id === addressChoice);
  // A saved address is sent by its id: one without the codes cannot carry a standard invoice.
  const addressProblem =
    business && chosen && !(chosen.building && /^\d{4}$/.test(chosen.building) && chosen.postal_code)
      ? t("checkout.business.savedAddressIncomplete")
      : "";
  const clientError = (name: FieldName): string => {
    for (const rule of validators[name] ?? []) {
      const message = rule(values[name]);
      // Rules answer at once here: the route shows this form only once `ready` (valibot) resolved.
      if (typeof message === "string" && message) return message;
    }
    return "";
  };
  const errorOf = (name: FieldName): string => {
    const server = serverErrors.find((e) => e.type === name)?.message;
    if (server) return server;
    return dirty.has(name) || submitted > 0 ? clientError(name) : "";
  };
  const set = (name: FieldName, value: string) => {
    setValues((v) => ({ ...v, [name]: value, ...(name === "short_address" ? buildingFrom(v, value) : {}) }));
    setDirty((s) => (s.has(name) ? s : new Set(s).add(name)));
    setServerErrors((errs) => errs.filter((e) => e.type !== name));
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setSubmitted((n) => n + 1);
    const invalid = (Object.keys(validators) as FieldName[]).filter((name) => clientError(name));
    const phoneMessage = usingNewAddress ? await rules.phone()(values.phone) : "";
    if (invalid.length || phoneMessage || addressProblem || !shipping || !payment) {
      setFormMessage("");
      return;
    }
    setBusy(true);
    setFormMessage("");
    setServerErrors([]);
    const address: NewAddress | undefined = usingNewAddress
      ? {
          name: values.name.trim(),
          phone: values.phone,
          city: values.city.trim(),
          district: values.district.trim(),
          street: values.street.trim(),
          ...(values.short_address.trim() ? { short_address: values.short_address.trim() } : {}),
          ...(values.building.trim() ? { building: values.building.trim() } : {}),
          ...(values.additional_number.trim() ? { additional_number: values.additional_number.trim() } : {}),
          ...(values.postal_code.trim() ? { postal_code: values.postal_code.trim() } : {}),
          ...(values.notes.trim() ? { notes: values.notes.trim() } : {}),
        }
      : undefined;
    try {
      const res = await placeOrder(
        browserApi(locale),
        {
          idempotency_key: keyRef.current,
          ...(values.email.trim() ? { email: values.email.trim() } : {}),
          ...(address ? { address } : { address_id: addressChoice as number }),
          shipping_method: shipping,
          payment_method: payment,
          ...(business
            ? { buyer_company: values.buyer_company.trim(), buyer_vat_number: values.buyer_vat_number.trim() }
            : {}),
        },
        challenge.take(),
      );
      challenge.clear();
      // The backend emptied the cart into the order; the page moves on before the empty-cart rule.
      onPlaced(res.data.number);
      cartActions.clearCartState();
      void cartActions.loadCart();
    } catch (error) {
      setBusy(false);
      // Nothing was placed: the widget shows, and its token sends this attempt again.
      if (challenge.offer(error)) {
        setFormMessage((error as ApiError).message || t("checkout.failed"));
        return;
      }
      if (error instanceof ApiError && (error.status === 422 || error.status === 409 || error.status === 400)) {
        // The server refused this attempt: the next one is a new attempt with a new key.
        keyRef.current = newIdempotencyKey();
        const errs = error.fieldErrors.map((fe) => ({ ...fe, type: fe.type.replace(/^address\./, "") }));
        setServerErrors(errs);
        setFormMessage(error.message || t("checkout.failed"));
        // Stock or the cart changed underneath: show the cart as it is now.
        void cartActions.loadCart();
        return;
      }
      const handled = handleBrowserError(error, locale, (path) => navigate(path));
      setFormMessage(handled.message || t("checkout.failed"));
    }
  };

  const summaryErrors: FieldError[] =
    submitted > 0
      ? [
          ...(Object.keys(validators) as FieldName[])
            .map((name) => ({ type: name, message: clientError(name) }))
            .filter((e) => e.message),
          ...(addressProblem ? [{ type: "address_choice", message: addressProblem }] : []),
          ...serverErrors.filter((se) => !clientError(se.type as FieldName)),
        ]
      : serverErrors;
  // 'Sorry, not all fields are filled out correctly.' while the fields still have something to fix.
  const summaryMessage = formMessage || (summaryErrors.length > 0 ? t("form.formInvalid") : "");

  return {
    cart,
    signedIn,
    values,
    labels,
    errorOf,
    set,
    submit,
    submitted,
    busy,
    summaryErrors,
    summaryMessage,
    addresses,
    addressChoice,
    setAddressChoice: saved.setChoice,
    usingNewAddress,
    business,
    setBusiness,
    addressProblem,
    options,
    failed,
    retry,
    quotedCity,
    shipping,
    setShipping,
    payment,
    setPayment,
    challenge,
  };
}

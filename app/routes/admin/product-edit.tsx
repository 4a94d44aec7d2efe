import { useNavigate, useRevalidator } from "react-router";
import type { Route } from "./+types/product-edit";
import { roleAtLeast } from "../../../contract/console";
import type { ConsoleAttribute } from "../../../contract/console-catalogue-shapes";
import { readNumber } from "../../../contract/numbers";
import { ProductForm } from "../../components/console/ProductForm";
import { ProductSpecsForm } from "../../components/console/ProductSpecsForm";
import { ProductVariantsForm } from "../../components/console/ProductVariantsForm";
import { answer, intentOf, textOf, unknownIntent } from "../../lib/actions";
import { browserApi } from "../../lib/api/browser";
import {
  getProduct,
  getProductAttributes,
  getProductChoices,
  getProductVariants,
  setProductAttributes,
  setProductVariants,
} from "../../lib/api/console-catalogue";
import { consoleLoad, consoleLocale, consoleMeta, notFoundResponse } from "../../lib/console";
import { useLocale } from "../../lib/use-locale";
import { listStockAlertDemand } from "../../lib/api/stock-alerts";
import { WaitingForProduct } from "../../components/stock-alerts/WaitingForProduct";

export const meta: Route.MetaFunction = (args) =>
  consoleMeta(args, (args.params as { id?: string }).id ? "console.products.editTitle" : "console.products.new");

/** products/new and products/:id: the same form, empty or with the product; a new one is a manager's. */
export async function loader(args: Route.LoaderArgs) {
  const raw = (args.params as { id?: string }).id;
  if (raw !== undefined && !/^[1-9]\d{0,12}$/.test(raw)) throw notFoundResponse();
  return consoleLoad(
    args,
    async (api, me) => {
      const canWrite = roleAtLeast(me.role, "manager");
      const [choices, product, attributes, variants, waiting] = await Promise.all([
        getProductChoices(api),
        raw === undefined ? Promise.resolve(null) : getProduct(api, Number(raw)),
        raw === undefined ? Promise.resolve(null) : getProductAttributes(api, Number(raw)),
        raw === undefined ? Promise.resolve(null) : getProductVariants(api, Number(raw)),
        // Who waits for its sold-out variants: Inventory's figures, for managers and owners.
        raw === undefined || !canWrite
          ? Promise.resolve(null)
          : listStockAlertDemand(api, { product_id: Number(raw), per_page: 100 }),
      ]);
      return {
        choices: choices.data,
        product: product?.data ?? null,
        attributes: attributes?.data ?? [],
        variants: variants?.data ?? null,
        waiting: waiting?.data ?? [],
        canWrite,
      };
    },
    raw === undefined ? { role: "manager" } : {},
  );
}

/** A specification's number may carry up to three decimals (6.73 inches, 1.5 kg). */
const NUMBER_DECIMALS = 3;

/**
 * Saves the typed specifications (`attributes`): each field read by its attribute's type (numbers
 * as merchants type them, contract/numbers.ts; what does not read as one goes as typed, for the
 * backend to refuse in its words); an empty field clears the value. The backend checks each.
 */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = consoleLocale(params);
  const id = Number((params as { id?: string }).id);
  const form = await request.formData();
  const intent = intentOf(form, ["attributes", "variants"] as const);
  if (!intent || !Number.isSafeInteger(id)) return unknownIntent(locale);
  if (intent === "variants") {
    // The editor's whole state, as the API takes it; the backend checks every part.
    let request: unknown;
    try {
      request = JSON.parse(textOf(form, "payload"));
    } catch {
      return unknownIntent(locale);
    }
    return answer(locale, "variants", () => setProductVariants(browserApi(locale), id, request));
  }
  const values: Record<string, ConsoleAttribute["value"]> = {};
  for (const [name, type] of form) {
    const code = name.startsWith("type:") ? name.slice(5) : null;
    if (!code || typeof type !== "string") continue;
    if (type === "text") {
      const en = textOf(form, `en:${code}`).trim();
      const ar = textOf(form, `ar:${code}`).trim();
      values[code] = en || ar ? { en, ar } : null;
      continue;
    }
    const value = textOf(form, `value:${code}`).trim();
    if (value === "") values[code] = null;
    else if (type === "number") {
      const reading = readNumber(value, { decimals: NUMBER_DECIMALS, min: -Number.MAX_SAFE_INTEGER });
      values[code] = reading.ok ? reading.value / 10 ** NUMBER_DECIMALS : value;
    } else if (type === "bool") values[code] = value === "true";
    else values[code] = value;
  }
  return answer(locale, "attributes", () => setProductAttributes(browserApi(locale), id, values));
}

export default function ConsoleProductEdit({ loaderData }: Route.ComponentProps) {
  const locale = useLocale();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  return (
    <>
      <ProductForm
        // A new product's form starts afresh after a save sends the operator to its page.
        key={loaderData.product?.id ?? "new"}
        product={loaderData.product}
        choices={loaderData.choices}
        canWrite={loaderData.canWrite}
        onSaved={async (saved, created) => {
          if (created) await navigate(`/${locale}/admin/products/${saved.id}`);
          else await revalidator.revalidate();
        }}
      />
      {loaderData.product ? (
        <ProductSpecsForm
          // Fresh fields when the saved values come back (the loaders revalidate after the action).
          key={JSON.stringify(loaderData.attributes.map((a) => a.value))}
          attributes={loaderData.attributes}
          canWrite={loaderData.canWrite}
        />
      ) : null}
      {loaderData.product && loaderData.variants ? (
        <ProductVariantsForm
          // Fresh rows when the saved variants come back (the loaders revalidate after the action).
          key={JSON.stringify(loaderData.variants)}
          saved={loaderData.variants}
          productSku={loaderData.product.sku}
          productImages={loaderData.product.images}
          canWrite={loaderData.canWrite}
        />
      ) : null}
      <WaitingForProduct rows={loaderData.waiting} />
    </>
  );
}

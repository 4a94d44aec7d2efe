import { useNavigate, useRevalidator } from "react-router";
import type { Route } from "./+types/product-edit";
import { roleAtLeast } from "../../../contract/console";
import { ProductForm } from "../../components/console/ProductForm";
import { getProduct, getProductChoices } from "../../lib/api/console-catalogue";
import { consoleLoad, consoleMeta, notFoundResponse } from "../../lib/console";
import { useLocale } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) =>
  consoleMeta(args, (args.params as { id?: string }).id ? "console.products.editTitle" : "console.products.new");

/** products/new and products/:id: the same form, empty or with the product; a new one is a manager's. */
export async function loader(args: Route.LoaderArgs) {
  const raw = (args.params as { id?: string }).id;
  if (raw !== undefined && !/^[1-9]\d{0,12}$/.test(raw)) throw notFoundResponse();
  return consoleLoad(
    args,
    async (api, me) => {
      const [choices, product] = await Promise.all([
        getProductChoices(api),
        raw === undefined ? Promise.resolve(null) : getProduct(api, Number(raw)),
      ]);
      return { choices: choices.data, product: product?.data ?? null, canWrite: roleAtLeast(me.role, "manager") };
    },
    raw === undefined ? { role: "manager" } : {},
  );
}

export default function ConsoleProductEdit({ loaderData }: Route.ComponentProps) {
  const locale = useLocale();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  return (
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
  );
}

import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/unsubscribe";
import { SHOPPER_TOPICS, UNSUBSCRIBE_PATH, type ShopperTopic } from "../../contract/unsubscribe";
import { AuthCard } from "../components/form/AuthCard";
import { serverApi } from "../lib/api/server";
import { ApiError } from "../lib/api/errors";
import { failLoad, routeLocale } from "../lib/loaders";
import { Link } from "../lib/link";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "unsubscribe", noindex: true });

const isTopic = (value: string | null): value is ShopperTopic =>
  (SHOPPER_TOPICS as readonly string[]).includes(value ?? "");

/** The link's topic and token; the token's form is checked by the backend when the shopper confirms. */
export function loader({ request }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const topic = query.get("topic");
  const token = query.get("token") ?? "";
  return isTopic(topic) && token ? { topic, token } : { topic: null, token: "" };
}

/**
 * The shopper confirms with a POST: a GET never unsubscribes, as mail scanners follow every link.
 * The form posts to this route's action (with or without JavaScript), which asks the backend.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const locale = routeLocale(params, context);
  const form = await request.formData();
  const body = { topic: String(form.get("topic") ?? ""), token: String(form.get("token") ?? "") };
  const api = await serverApi(context, request, locale);
  try {
    await api.post<{ topic: ShopperTopic }>(UNSUBSCRIBE_PATH, body);
    return { ok: true as const };
  } catch (error) {
    if (error instanceof ApiError && [400, 422, 429].includes(error.status))
      return data({ ok: false as const }, { status: error.status });
    failLoad(error, locale);
  }
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useNavigation().state === "submitting";
  const { topic, token } = loaderData;
  const home = <Link to="/">{t("unsubscribe.home")}</Link>;
  if (actionData?.ok)
    return (
      <AuthCard title={t("unsubscribe.doneTitle")} lead={t(`unsubscribe.topics.${topic}`)} footer={home}>
        <p role="status">{t("unsubscribe.done")}</p>
      </AuthCard>
    );
  if (!topic || actionData?.ok === false)
    return (
      <AuthCard title={t("unsubscribe.invalidTitle")} footer={home}>
        <p role="alert">{t("unsubscribe.invalid")}</p>
      </AuthCard>
    );
  return (
    <AuthCard title={t("unsubscribe.title")} lead={t(`unsubscribe.topics.${topic}`)} footer={home}>
      <Form method="post" className="form auth-form">
        <input type="hidden" name="topic" value={topic} />
        <input type="hidden" name="token" value={token} />
        <p>{t("unsubscribe.explain")}</p>
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {t("unsubscribe.confirm")}
        </button>
      </Form>
    </AuthCard>
  );
}

import { useId, useState, type FormEvent } from "react";
import type { Route } from "./+types/messages";
import type { ProfileHandle } from "./data";
import type { MessageChannel, MessageChannelState } from "../../../contract/message-channel";
import { getMessageChannel, setMessageChannel } from "../../lib/api/message-channel";
import { browserApi } from "../../lib/api/browser";
import { ApiError } from "../../lib/api/errors";
import { handleServerError, serverApi } from "../../lib/api/server";
import { currentIdentity } from "../../lib/identity";
import { Link } from "../../lib/link";
import { isLocale } from "../../lib/locales";
import { formatDate } from "../../lib/orders";
import { pageMeta } from "../../lib/seo";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";
import { authMiddleware } from "../../middleware/auth";
import { toast } from "../../client/toast";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const handle: ProfileHandle = { profileSection: "messages" };

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

/** The shopper's channel for order messages, server-rendered (the `auth` guard ran). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  try {
    const api = await serverApi(context, request, locale);
    return { state: (await getMessageChannel(api)).data };
  } catch (error) {
    handleServerError(error, locale);
    throw error;
  }
}

/**
 * "How we reach you": order messages to the phone by SMS (the default) or by WhatsApp. WhatsApp
 * needs a phone on the account; choosing it sends the opt-in sentence shown here, which the
 * backend records with the time and language (contract/message-channel.ts).
 */
export default function ProfileMessages({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const [state, setState] = useState<MessageChannelState>(loaderData.state);
  const [choice, setChoice] = useState<MessageChannel>(loaderData.state.channel);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ids = { title: useId(), consent: useId(), error: useId() };
  const whatsappPossible = state.whatsapp_available && state.phone !== null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const id = toast.loading(t("messageChannel.saving"));
    try {
      const answer = await setMessageChannel(
        browserApi(locale),
        choice === "whatsapp" ? { channel: "whatsapp", consent: state.consent ?? undefined } : { channel: "sms" },
        currentIdentity().userId,
      );
      setState(answer.data);
      setChoice(answer.data.channel);
      toast.success(answer.message || t("messageChannel.saved"), { id });
    } catch (err) {
      const message = err instanceof ApiError ? (err.errors.channel?.[0] ?? err.message) : t("errors.default");
      setError(message);
      toast.error(message, { id });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card profile-card message-channel" aria-labelledby={ids.title}>
      <h2 id={ids.title}>{t("messageChannel.heading")}</h2>
      <p className="muted">{t("messageChannel.intro")}</p>
      <form method="post" className="form" onSubmit={submit} noValidate>
        {error ? (
          <p className="form__alert" role="alert" id={ids.error}>
            {error}
          </p>
        ) : null}
        <fieldset className="message-channel__choices" aria-describedby={error ? ids.error : undefined}>
          <legend>{t("messageChannel.legend")}</legend>
          <label className="message-channel__choice">
            <input
              type="radio"
              name="channel"
              value="sms"
              checked={choice === "sms"}
              onChange={() => setChoice("sms")}
            />
            <span>
              <strong>{t("messageChannel.sms")}</strong>
              <span className="muted">{t("messageChannel.smsHint")}</span>
            </span>
          </label>
          <label className="message-channel__choice">
            <input
              type="radio"
              name="channel"
              value="whatsapp"
              checked={choice === "whatsapp"}
              disabled={!whatsappPossible}
              aria-describedby={ids.consent}
              onChange={() => setChoice("whatsapp")}
            />
            <span>
              <strong>{t("messageChannel.whatsapp")}</strong>
              <span className="muted" id={ids.consent}>
                {!state.whatsapp_available
                  ? t("messageChannel.notOffered")
                  : state.consent
                    ? state.consent
                    : t("messageChannel.needsPhone")}
              </span>
            </span>
          </label>
        </fieldset>
        {state.whatsapp_available && !state.phone ? (
          <p>
            <Link to={to("/profile/edit")}>{t("messageChannel.addPhone")}</Link>
          </p>
        ) : null}
        {state.channel === "whatsapp" && state.opted_in_at ? (
          <p className="muted" role="status">
            {t("messageChannel.optedInAt", {
              date: formatDate(state.opted_in_at, locale, true),
            })}
          </p>
        ) : null}
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={busy || choice === state.channel}>
            {t("messageChannel.save")}
          </button>
        </div>
      </form>
    </section>
  );
}

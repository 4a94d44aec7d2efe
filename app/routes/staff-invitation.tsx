import { useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import type { Route } from "./+types/staff-invitation";
import type { Account } from "../../contract/account";
import { shopMoment } from "../../contract/shop-time";
import { INVITATION_PATH, INVITATION_TOKEN, type InvitationLookup } from "../../contract/staff-invitations";
import { toast } from "../client/toast";
import { AuthCard } from "../components/form/AuthCard";
import { getProfile } from "../lib/api/account";
import { browserApi } from "../lib/api/browser";
import { ApiError } from "../lib/api/errors";
import { acceptStaffInvitation, lookupStaffInvitation } from "../lib/api/staff-invitation";
import { translate } from "../lib/i18n";
import { Link } from "../lib/link";
import { isLocale } from "../lib/locales";
import { pageMeta } from "../lib/seo";
import { tabIdentity } from "../lib/tab-identity.server";
import { keepInvitationToken, takeInvitationToken } from "../lib/staff-invitation";
import { readStored, restoreIdentity } from "../lib/tab-storage";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => {
  const locale = isLocale(args.params.locale) ? args.params.locale : "en";
  return pageMeta(args, {
    page: "staffInvitation",
    title: translate(locale, "staffInvitation.title"),
    description: translate(locale, "staffInvitation.description"),
    noindex: true,
  });
};

/** The server gives the page only the signed-in session's token, for a new tab (tab-identity.server.ts). */
export async function loader({ context }: Route.LoaderArgs) {
  return { identity: await tabIdentity(context) };
}

type Load =
  | { state: "missing" }
  | { state: Exclude<InvitationLookup["state"], "pending"> }
  | {
      state: "pending";
      token: string;
      invitation: Extract<InvitationLookup, { state: "pending" }>;
      /** The signed-in account, null when nobody is signed in in this tab. */
      account: Account | null;
    };

/** Read in the browser: the token lives in the fragment and session storage, never sent to the page's server. */
export async function clientLoader({ params, request, serverLoader }: Route.ClientLoaderArgs): Promise<Load> {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const token = takeInvitationToken();
  if (!token) return { state: "missing" };
  // A malformed token is looked up as nothing, without a call.
  if (!INVITATION_TOKEN.test(token)) return { state: "invalid" };
  if (!readStored("token")) restoreIdentity((await serverLoader()).identity);
  const api = browserApi(locale);
  const invitation = (await lookupStaffInvitation(api, token, request.signal)).data;
  if (invitation.state !== "pending") return { state: invitation.state };
  let account: Account | null = null;
  if (readStored("token")) {
    try {
      account = (await getProfile(api)).data;
    } catch (error) {
      // A token the backend no longer knows: signed out, for this page.
      if (!(error instanceof ApiError && error.status === 401)) throw error;
    }
  }
  return { state: "pending", token, invitation, account };
}
clientLoader.hydrate = true as const;

/** The page's card, shared by the hydration fallback and the page. */
function InvitationCard({ lead, children }: { lead?: string; children: React.ReactNode }) {
  const t = useT();
  return (
    <AuthCard title={t("staffInvitation.title")} lead={lead}>
      {children}
    </AuthCard>
  );
}

export function HydrateFallback() {
  const t = useT();
  return (
    <InvitationCard>
      <p aria-busy="true">{t("staffInvitation.checking")}</p>
    </InvitationCard>
  );
}

/**
 * A staff invitation's accept page (the link emailed by an owner from the console's Staff page).
 * The invitee accepts it signed in to the shop account of the invited email, verified; the page
 * sends a visitor who is signed out to sign in or register and brings them back, and then on to
 * the console. A link that opens nothing says why, in the page's language.
 */
export default function StaffInvitationPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [refusal, setRefusal] = useState<{ field: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const here = to(INVITATION_PATH);
  const back = `?redirect=${encodeURIComponent(here)}`;

  if (loaderData.state !== "pending") {
    return (
      <InvitationCard>
        <p className="form__alert" role="alert">
          {t(`staffInvitation.states.${loaderData.state}`)}
        </p>
        {loaderData.state === "accepted" ? (
          <p>
            <Link className="button" to={to("/admin")}>
              {t("staffInvitation.openConsole")}
            </Link>
          </p>
        ) : null}
      </InvitationCard>
    );
  }

  const { invitation, account, token } = loaderData;
  const role = t(`staffInvitation.roles.${invitation.role}`);

  const accept = async () => {
    setBusy(true);
    setRefusal(null);
    const id = toast.loading(t("staffInvitation.accepting"));
    try {
      await acceptStaffInvitation(browserApi(locale), token);
      keepInvitationToken(null);
      toast.success(t("staffInvitation.accepted"), { id });
      // The console asks for its emailed code first (its sign-in step).
      await navigate(to("/admin"));
    } catch (error) {
      toast.dismiss(id);
      setBusy(false);
      if (error instanceof ApiError && error.status === 401) {
        await navigate(`${to("/auth/login")}${back}`);
        return;
      }
      if (error instanceof ApiError && error.status === 422) {
        const field = Object.keys(error.errors)[0] ?? "token";
        // A link that stopped working meanwhile: the page says which way, as on arrival.
        if (field === "token") await revalidator.revalidate();
        else setRefusal({ field, message: error.message });
        return;
      }
      toast.error(error instanceof ApiError && error.message ? error.message : t("errors.default"));
    }
  };

  const switchAccount = async () => {
    // Signing out clears the tab's storage, the invitation's token with it: kept across.
    const { signOut } = await import("../lib/identity");
    await signOut(locale);
    keepInvitationToken(token);
    await navigate(`${to("/auth/login")}${back}`);
  };

  return (
    <InvitationCard lead={t("staffInvitation.invited", { role })}>
      <p>
        {t("staffInvitation.sentTo", { email: "\u2068" + invitation.email + "\u2069" })}{" "}
        {t("staffInvitation.validUntil", { until: shopMoment(invitation.expires_at, locale) })}
      </p>
      {account ? (
        <>
          <p>{t("staffInvitation.signedInAs", { email: "\u2068" + (account.email ?? account.name) + "\u2069" })}</p>
          {refusal ? (
            <div className="form__alert" role="alert">
              <p>{refusal.message}</p>
              {refusal.field === "email" ? (
                <button type="button" className="button button--ghost" onClick={() => void switchAccount()}>
                  {t("staffInvitation.switchAccount")}
                </button>
              ) : null}
              {refusal.field === "verified" && account.email ? (
                <Link
                  className="button button--ghost"
                  to={`${to("/auth/otp")}?${new URLSearchParams({ purpose: "verify", to: account.email, send: "1", redirect: here })}`}
                >
                  {t("staffInvitation.verify")}
                </Link>
              ) : null}
            </div>
          ) : null}
          <button
            type="button"
            className="button button--primary button--block"
            disabled={busy}
            onClick={() => void accept()}
          >
            {t("staffInvitation.accept")}
          </button>
        </>
      ) : (
        <>
          <p>{t("staffInvitation.signInFirst")}</p>
          <p className="staff-invitation__actions">
            <Link className="button button--primary" to={`${to("/auth/login")}${back}`}>
              {t("staffInvitation.signIn")}
            </Link>{" "}
            <Link className="button button--ghost" to={`${to("/auth/register")}${back}`}>
              {t("staffInvitation.createAccount")}
            </Link>
          </p>
        </>
      )}
    </InvitationCard>
  );
}

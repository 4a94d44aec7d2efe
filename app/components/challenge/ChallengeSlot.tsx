import { lazy, Suspense } from "react";
import type { ChallengeState } from "../../lib/challenge";
import { useT } from "../../lib/use-locale";

/** The widget and its script load only once a refusal asked for them: never on a normal visit. */
const ChallengeWidget = lazy(() => import("./ChallengeWidget"));

/**
 * Where a form shows Turnstile's widget when the backend asked for it; `onToken` gets the token
 * (the form keeps it with `state.solved` and sends its request again).
 */
export function ChallengeSlot({ state, onToken }: { state: ChallengeState; onToken: (token: string) => void }) {
  const t = useT();
  if (!state.challenge) return null;
  return (
    <div className="challenge" role="group" aria-label={t("challenge.title")}>
      <Suspense fallback={<p className="challenge__status muted">{t("app.loading")}</p>}>
        <ChallengeWidget key={state.round} challenge={state.challenge} onToken={onToken} />
      </Suspense>
    </div>
  );
}

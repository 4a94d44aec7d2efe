import { useAtomValue } from "jotai";
import { useRef, useState } from "react";
import { useCart } from "../lib/cart";
import { checkPromoCode, removePromoCode } from "../lib/promo-code";
import { useChallenge } from "../lib/challenge";
import { ChallengeSlot } from "./challenge/ChallengeSlot";
import { useT } from "../lib/use-locale";
import { promoAtom } from "../state/cart";

/**
 * The promo code field (spec §4, §5): the server validates; a valid code shows
 * 'Discount received {n} on total payment', an invalid one the server's own message.
 */
export function PromoCode() {
  const t = useT();
  const cart = useCart();
  const promo = useAtomValue(promoAtom);
  const [code, setCode] = useState(promo.state === "valid" ? promo.code : "");
  const [busy, setBusy] = useState(false);
  // A busy network's person check: the busy message, the widget, and its token on the retried check.
  const challenge = useChallenge();
  const [challengeMessage, setChallengeMessage] = useState("");
  const formRef = useRef<HTMLFormElement>(null);

  const apply = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const result = await checkPromoCode(cart.ctx, code, challenge.take());
    if (challenge.offer(result.challenged)) setChallengeMessage(result.message ?? "");
    else {
      challenge.clear();
      setChallengeMessage("");
    }
    setBusy(false);
  };
  const remove = async () => {
    setBusy(true);
    await removePromoCode(cart.ctx);
    setCode("");
    setBusy(false);
  };

  const invalid = promo.state === "invalid";
  return (
    <form ref={formRef} className="promo" onSubmit={(e) => void apply(e)} noValidate>
      <label htmlFor="promo-code" className="promo__label">
        {t("cart.promo.label")}
      </label>
      <div className="promo__row">
        <input
          id="promo-code"
          name="code"
          className="promo__input"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          dir="ltr"
          aria-invalid={invalid}
          aria-describedby={promo.message ? "promo-message" : undefined}
          disabled={busy}
        />
        {promo.state === "valid" ? (
          <button type="button" className="button" onClick={() => void remove()} disabled={busy}>
            {t("cart.promo.remove")}
          </button>
        ) : (
          <button type="submit" className="button" disabled={busy} aria-busy={busy}>
            {busy ? t("cart.promo.applying") : t("cart.promo.apply")}
          </button>
        )}
      </div>
      <p
        id="promo-message"
        className={`promo__message promo__message--${promo.state}`}
        role="status"
        aria-live="polite"
      >
        {challengeMessage || promo.message}
      </p>
      <ChallengeSlot
        state={challenge}
        onToken={(token) => {
          challenge.solved(token);
          formRef.current?.requestSubmit();
        }}
      />
    </form>
  );
}

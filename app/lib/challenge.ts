import { useMemo, useRef, useState } from "react";
import { CHALLENGE_HEADER, challengeOf, type Challenge } from "../../contract/challenge";
import { ApiError } from "./api/errors";

/**
 * A busy network's person check (contract/challenge.ts): a refusal that carries `challenge` asks
 * the form to show Turnstile's widget; the token it gives goes with the retried call, once. Nothing
 * of the widget loads before a refusal asks for it (components/challenge/ChallengeSlot.tsx).
 */

/** The challenge a failed call asks for, or null. */
export function challengeIn(error: unknown): Challenge | null {
  return error instanceof ApiError ? challengeOf(error.body) : null;
}

export interface ChallengeState {
  /** The challenge to show, while one is asked for. */
  challenge: Challenge | null;
  /** Bumped on every refusal, so a refused token's widget is drawn afresh. */
  round: number;
  /** Keeps the refusal's challenge to show; true when the error was one. */
  offer(error: unknown): boolean;
  /** The widget's token. */
  solved(token: string): void;
  /** The headers of the next call: the token, if there is one; a token is spent by taking it. */
  take(): Record<string, string> | undefined;
  /** The call went through: no widget any more. */
  clear(): void;
}

export function useChallenge(): ChallengeState {
  const [shown, setShown] = useState<{ challenge: Challenge | null; round: number }>({ challenge: null, round: 0 });
  const token = useRef<string | null>(null);
  const actions = useMemo(
    () => ({
      offer(error: unknown) {
        const challenge = challengeIn(error);
        if (!challenge) return false;
        token.current = null;
        setShown((s) => ({ challenge, round: s.round + 1 }));
        return true;
      },
      solved(value: string) {
        token.current = value;
      },
      take() {
        const value = token.current;
        token.current = null;
        return value ? { [CHALLENGE_HEADER]: value } : undefined;
      },
      clear() {
        token.current = null;
        setShown((s) => (s.challenge ? { challenge: null, round: s.round } : s));
      },
    }),
    [],
  );
  return { ...shown, ...actions };
}

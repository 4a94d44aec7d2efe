import type { Env } from "../../env";
import type { ReviewRow } from "./rows";

/**
 * The messages a review's author is owed (the shared shopper outbox): a `review_decision` when
 * staff reject their review, with the reason.
 */
export async function decisionStatements(
  _env: Pick<Env, "DB" | "PUBLIC_ORIGIN" | "ENVIRONMENT">,
  _review: ReviewRow,
  _reason: string,
): Promise<D1PreparedStatement[]> {
  return [];
}

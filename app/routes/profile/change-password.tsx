import type { Route } from "./+types/change-password";
import type { ProfileHandle } from "./data";
import { ChangePassword } from "../../components/profile/ChangePassword";
import { pageMeta } from "../../lib/seo";
import { authMiddleware } from "../../middleware/auth";
import { scriptRequired } from "../../lib/no-script.server";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const handle: ProfileHandle = { profileSection: "change-password" };

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

/** Posted without JavaScript: the form carries a secret, so it posts, and the page says it needs the script. */
export const action = (args: Route.ActionArgs) => scriptRequired(args);

export default function ProfileChangePassword() {
  return <ChangePassword />;
}

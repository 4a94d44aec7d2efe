import type { Route } from "./+types/edit";
import { useProfileUser, type ProfileHandle } from "./data";
import { EditProfile } from "../../components/profile/EditProfile";
import { pageMeta } from "../../lib/seo";
import { authMiddleware } from "../../middleware/auth";
import { scriptRequired } from "../../lib/no-script.server";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const handle: ProfileHandle = { profileSection: "edit" };

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

/** Posted without JavaScript: the form carries a secret, so it posts, and the page says it needs the script. */
export const action = (args: Route.ActionArgs) => scriptRequired(args);

/** The profile's edit section: the account comes from the layout, read again after a save. */
export default function ProfileEdit() {
  return <EditProfile user={useProfileUser()} />;
}

import type { Route } from "./+types/edit";
import { useProfileUser, type ProfileHandle } from "./data";
import { EditProfile } from "../../components/profile/EditProfile";
import { pageMeta } from "../../lib/seo";
import { authMiddleware } from "../../middleware/auth";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const handle: ProfileHandle = { profileSection: "edit" };

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

/** The profile's edit section: the account comes from the layout, read again after a save. */
export default function ProfileEdit() {
  return <EditProfile user={useProfileUser()} />;
}

import type { Route } from "./+types/change-password";
import type { ProfileHandle } from "./data";
import { ChangePassword } from "../../components/profile/ChangePassword";
import { pageMeta } from "../../lib/seo";
import { authMiddleware } from "../../middleware/auth";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const handle: ProfileHandle = { profileSection: "change-password" };

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

export default function ProfileChangePassword() {
  return <ChangePassword />;
}

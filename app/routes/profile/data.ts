import { useRouteLoaderData } from "react-router";
import type { clientLoader } from "./layout";
import type { ProfileSection } from "../../components/ProfileNav";

/** The profile layout's route id (routes.ts). */
export const PROFILE_LAYOUT_ID = "routes/profile/layout";

/** The account the profile layout read, for the overview and the sections under it. */
export function useProfileData() {
  // Only the layout's children call these, so the layout's data is there (and, on a section, the
  // `auth` guard has run, so the user is signed in).
  return useRouteLoaderData<typeof clientLoader>(PROFILE_LAYOUT_ID)!;
}

/** The signed-in user of a section page: the `auth` guard ran, and the layout read the account. */
export function useProfileUser() {
  return useProfileData().user!;
}

/** What a section route declares in its `handle`, so the layout titles the page. */
export interface ProfileHandle {
  profileSection: ProfileSection;
}

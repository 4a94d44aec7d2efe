/**
 * The code a heart and the recently viewed strip load later, named once for the pages that show
 * products, so those pages' first load carries one list of later chunks, not one per component.
 */

/** A heart's press (./toggle.ts). */
export const loadToggle = () => import("./toggle");

/** The recently viewed strip (../recently-viewed/RecentlyViewed.tsx). */
export const loadRecentlyViewed = () => import("../recently-viewed/RecentlyViewed");

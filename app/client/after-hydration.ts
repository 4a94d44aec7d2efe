import { updatePoll } from "./update-poll";
// Field data: importing the start-up module starts it; it waits for an idle period.
import "./rum-start";
// The wishlist's sync with the account, once idle (lib/wishlist/boot.ts).
import "../lib/wishlist/boot";

/**
 * What the client entry starts once the page has hydrated, in one chunk of its own, so the first
 * load carries one dynamic import for all of it.
 *
 * Spec §4: poll for a new build every hour; a change makes the next navigation a full load. It
 * starts at once rather than from the idle queue (client/idle.ts), so the hour is counted from the
 * page's load; the layout reads its result from the small update-state module.
 */
updatePoll.start();

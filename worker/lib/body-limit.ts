import { bodyLimit } from "hono/body-limit";

/**
 * The largest request body the commerce API takes (64 KiB: a checkout is a few hundred bytes).
 * The reference backend applies it to its own routes, and the edge to what it forwards to an
 * external backend, so a flood of large bodies stops at the edge either way.
 */
export const backendBodyLimit = () =>
  bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.json({ message: "Payload too large" }, 413) });

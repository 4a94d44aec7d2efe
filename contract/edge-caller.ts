// The edge vouching for its calls to the backend (DESIGN §10): with BACKEND_URL set, every call
// the backend gets from the shop comes from the worker's own address, so the visitor's address
// must travel in a header, and the backend must know that header came from the edge and not from
// a caller choosing the network it is counted under. The edge (worker/backend-client.ts) and the
// reference backend (worker/backend/edge-caller.ts) import this; an external backend speaks the
// same headers over HTTP.

/**
 * Request header: EDGE_SECRET, the secret the edge and the backend share. The edge sends it on
 * every call and forward when the secret is set; the backend compares it in constant time.
 */
export const EDGE_SECRET_HEADER = "x-shop-edge";

/**
 * Request header: the visitor's address as Cloudflare saw it at the edge. The backend counts its
 * per-network limits under it only on a call carrying the right EDGE_SECRET_HEADER; on any other
 * call it is ignored, and the caller is counted under its own `cf-connecting-ip`.
 */
export const VISITOR_IP_HEADER = "x-shop-visitor-ip";

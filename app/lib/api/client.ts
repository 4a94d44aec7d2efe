import { ORDER_ACCESS_HEADER } from "../../../contract/order-access";
import type { Locale } from "../locales";
import { ApiError } from "./errors";

export type DeviceType = 1 | 2;

/** Who is calling: the headers of spec §7 come from here. */
export interface ApiIdentity {
  locale: Locale;
  deviceType: DeviceType;
  token?: string | null;
  guestId?: string | null;
}

/** How a call reaches the backend: in-process on the server, HTTP in the browser or with BACKEND_URL. */
export type ApiTransport = (path: string, init: RequestInit) => Promise<Response>;

export interface CallOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** The `Id` header, sent on the calls that need it. */
  id?: string | number;
  /** A grant for the order the call is about (contract/order-access.ts), when the tab holds one. */
  access?: string | null;
  /** Headers of this call alone: a challenged call's Turnstile token (lib/challenge.ts). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface Envelope<T> {
  data: T;
  message?: string;
  meta?: Record<string, unknown>;
}

export function buildHeaders(
  identity: ApiIdentity,
  opts: {
    id?: string | number;
    json?: boolean;
    access?: string | null;
    headers?: Record<string, string>;
  } = {},
): Headers {
  const h = new Headers({ accept: "application/json" });
  h.set("content-language", identity.locale);
  h.set("device-type", String(identity.deviceType));
  if (identity.token) h.set("authorization", `Bearer ${identity.token}`);
  else if (identity.guestId) h.set("guest-id", identity.guestId);
  if (opts.id !== undefined && opts.id !== null && opts.id !== "") h.set("id", String(opts.id));
  if (opts.json) h.set("content-type", "application/json");
  if (opts.access) h.set(ORDER_ACCESS_HEADER, opts.access);
  for (const [name, value] of Object.entries(opts.headers ?? {})) h.set(name, value);
  return h;
}

export function withQuery(path: string, query?: CallOptions["query"]): string {
  if (!query) return path;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== "") qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${path}${path.includes("?") ? "&" : "?"}${s}` : path;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** A failed answer as `ApiError`: the envelope's message and field errors, when it has them. */
function failure(status: number, json: unknown): ApiError {
  const body = (json ?? {}) as { message?: unknown; errors?: unknown };
  const message = typeof body.message === "string" ? body.message : "";
  const errors = body.errors && typeof body.errors === "object" ? (body.errors as Record<string, string[]>) : {};
  return new ApiError(status, message, errors, json);
}

/**
 * The single backend client. Every backend call in the storefront goes through `request`, which
 * sets the spec §7 headers, sends JSON, and turns failures into `ApiError` values.
 */
export function createApi(transport: ApiTransport, identity: ApiIdentity, lookupTransport: ApiTransport = transport) {
  /** One call: the response, or `ApiError` status 0 when none arrived. */
  async function send(method: string, path: string, opts: CallOptions, via: ApiTransport): Promise<Response> {
    const hasBody = opts.body !== undefined;
    try {
      return await via(withQuery(path, opts.query), {
        method,
        headers: buildHeaders(identity, {
          id: opts.id,
          json: hasBody,
          access: opts.access,
          headers: opts.headers,
        }),
        body: hasBody ? JSON.stringify(opts.body) : undefined,
        signal: opts.signal,
      });
    } catch (cause) {
      if (opts.signal?.aborted) throw cause;
      throw new ApiError(0, "", {}, cause);
    }
  }

  async function request<T>(
    method: string,
    path: string,
    opts: CallOptions = {},
    via: ApiTransport = transport,
  ): Promise<Envelope<T>> {
    const res = await send(method, path, opts, via);
    const json = parseJson(await res.text());
    if (!res.ok) throw failure(res.status, json);
    return (json ?? { data: null }) as Envelope<T>;
  }

  /**
   * A GET whose answer is a file (a tax document's XML or PDF), not the envelope: its bytes as a
   * Blob typed as the backend sent them. A failure still answers the envelope, read as `request` does.
   */
  async function file(path: string, opts: CallOptions = {}): Promise<Blob> {
    const res = await send("GET", path, opts, transport);
    if (!res.ok) throw failure(res.status, parseJson(await res.text()));
    return res.blob();
  }

  return {
    identity,
    get: <T>(path: string, opts?: CallOptions) => request<T>("GET", path, opts),
    post: <T>(path: string, body?: unknown, opts?: CallOptions) =>
      request<T>("POST", path, { ...opts, body: body ?? {} }),
    put: <T>(path: string, body?: unknown, opts?: CallOptions) =>
      request<T>("PUT", path, { ...opts, body: body ?? {} }),
    patch: <T>(path: string, body?: unknown, opts?: CallOptions) =>
      request<T>("PATCH", path, { ...opts, body: body ?? {} }),
    delete: <T>(path: string, opts?: CallOptions) => request<T>("DELETE", path, opts),
    file,
    /** A GET against the separate lookup base URL. */
    lookup: <T>(path: string, opts?: CallOptions) => request<T>("GET", path, opts, lookupTransport),
  };
}

export type Api = ReturnType<typeof createApi>;

/**
 * A provider's JSON API, as the pay-later adapters call it: a 4xx answer is the provider's own
 * (its body is read and returned with `ok: false`); a 5xx or no answer throws, which the caller
 * records as the provider being unavailable.
 */
export function jsonApi(name: string, base: string, token: string, fetcher: typeof fetch = fetch) {
  // Both take their key as a Bearer token and speak JSON both ways.
  const headers = { authorization: `Bearer ${token}`, accept: "application/json", "content-type": "application/json" };
  return async function api<T>(
    path: string,
    init: RequestInit = {},
  ): Promise<{ ok: boolean; status: number; body: T }> {
    const res = await fetcher(`${base}${path}`, { ...init, headers });
    if (res.status >= 500) throw new Error(`${name} ${init.method ?? "GET"} ${path} answered ${res.status}`);
    return { ok: res.ok, status: res.status, body: (await res.json().catch(() => ({}))) as T };
  };
}

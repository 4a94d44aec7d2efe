// The JSON client of the HTTP tests against a running worker (Node): the storefront's headers
// (same origin, JSON), answers parsed. Runs in Node, like global-setup.ts.

export interface JsonInit {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A client for one worker's base URL; `defaults` go on every request (e.g. a visitor's address). */
export function jsonApi(base: string, defaults: Record<string, string> = {}) {
  return async (path: string, init: JsonInit = {}) => {
    const res = await fetch(`${base}${path}`, {
      method: init.method ?? "GET",
      headers: { accept: "application/json", "content-type": "application/json", origin: base, ...defaults, ...(init.headers ?? {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: "manual",
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (an HTML page): the test reads the text.
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field in each test
    return { status: res.status, body: body as any };
  };
}

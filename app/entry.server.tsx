import { isbot } from "isbot";
// React's Node build of the same public API, not the edge build that the `workerd` export condition
// picks: the edge build turns every attribute and text into its own Uint8Array (TextEncoder.encode
// per string) as it renders, the Node build keeps strings and encodes them into one buffer as it
// flushes. Same markup, about half the CPU of the render itself (docs/PERFORMANCE.md, "A fresh render
// within the CPU budget"). It needs node:util, node:crypto, node:async_hooks and node:stream, which
// the Workers runtime provides under `nodejs_compat` (wrangler.toml).
import { renderToReadableStream } from "react-dom/server.node";
import { ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { shopContext } from "./lib/context";
import "./lib/i18n.server";
import { NonceContext } from "./lib/nonce";

export const streamTimeout = 5_000;

/**
 * Streaming SSR: the shell goes out as soon as it is ready and deferred data streams after it.
 * Bots get the whole document at once (allReady), so they see everything.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce } = loadContext.get(shopContext);
  let status = responseStatusCode;
  let shellRendered = false;
  const body = await renderToReadableStream(
    <NonceContext.Provider value={nonce}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </NonceContext.Provider>,
    {
      nonce,
      signal: AbortSignal.timeout(streamTimeout + 1_000),
      onError(error: unknown) {
        status = 500;
        // Errors before the shell are reported by React Router; later ones only here.
        if (shellRendered) console.error(error);
      },
    },
  );
  shellRendered = true;
  const userAgent = request.headers.get("user-agent");
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) await body.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("Cache-Control", "no-cache");
  return new Response(body, { headers: responseHeaders, status });
}

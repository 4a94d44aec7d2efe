import type { Locale } from "../../contract/locale";
import type { Env } from "../env";

export type Lang = Locale;

/** Hono typing for the backend app: bindings, plus what its middleware puts on the context. */
export type BackendEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** From `content-language`: localized fields come back in this language. */
    lang: Lang;
    /** The 1/2 `device-type` header. */
    deviceType: 1 | 2;
  };
};

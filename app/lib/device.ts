import type { DeviceType } from "./api/client";

/** 2 for a mobile device (client hint or a mobile user agent), else 1; one rule with the edge's. */
export { deviceTypeFromHeaders } from "../../contract/edge";

/** In the browser: a coarse pointer on a narrow viewport is mobile. */
export function deviceTypeInBrowser(): DeviceType {
  if (typeof window === "undefined" || !window.matchMedia) return 1;
  return window.matchMedia("(pointer: coarse)").matches && window.innerWidth < 768 ? 2 : 1;
}

import type { DeviceType } from "./api/client";

const MOBILE_UA = /Mobi|Android|iPhone|iPad|iPod|Windows Phone/i;

/** 2 for a mobile device (client hint or a mobile user agent), else 1. */
export function deviceTypeFromHeaders(headers: Headers): DeviceType {
  if (headers.get("sec-ch-ua-mobile") === "?1") return 2;
  return MOBILE_UA.test(headers.get("user-agent") ?? "") ? 2 : 1;
}

/** In the browser: a coarse pointer on a narrow viewport is mobile. */
export function deviceTypeInBrowser(): DeviceType {
  if (typeof window === "undefined" || !window.matchMedia) return 1;
  return window.matchMedia("(pointer: coarse)").matches && window.innerWidth < 768 ? 2 : 1;
}

declare const __BUILD_ID__: string;
declare const __BUILD_TIME__: number;

/** Set at build time by vite.config.ts; the update check compares it with /builds/latest.json. */
export const BUILD_ID: string = typeof __BUILD_ID__ === "string" ? __BUILD_ID__ : "dev";
export const BUILD_TIME: number = typeof __BUILD_TIME__ === "number" ? __BUILD_TIME__ : 0;

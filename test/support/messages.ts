// The shop's locale files as Node-side tests read them: a test finds what the visitor reads.
import { readFileSync } from "node:fs";
import { LOCALES } from "./browser.ts";

type Locale = (typeof LOCALES)[number];
type Messages = Record<string, unknown>;

const MESSAGES = Object.fromEntries(
  LOCALES.map((l) => [l, JSON.parse(readFileSync(new URL(`../../locales/${l}.json`, import.meta.url), "utf8"))]),
) as Record<Locale, Messages>;

/** A message of the locale files, with its {{name}} placeholders filled in. */
export function say(locale: Locale, key: string, params: Record<string, string | number> = {}): string {
  const value = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Messages | undefined)?.[part], MESSAGES[locale]);
  if (typeof value !== "string") throw new Error(`missing message ${key} in ${locale}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ""));
}

/** The locale files' parts (scripts/lib/locale-parts.ts): the shop's messages, or the console's. */
declare module "virtual:locale/*" {
  const messages: Record<string, unknown>;
  export default messages;
}

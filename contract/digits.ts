// Digits as shoppers type them. A module of its own, free of any library, so a page that only
// reads a number (the quantity picker) does not load the validation library with it.

/**
 * Arabic-Indic and Persian digits read as the digits they are, the Arabic decimal separator (٫)
 * as a point and the Arabic thousands separator (٬) dropped.
 */
export function latinDigits(text: string): string {
  return text
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/\u066b/g, ".")
    .replace(/\u066c/g, "");
}

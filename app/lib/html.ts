/**
 * Text made safe to stand in HTML, as an attribute's value (quoted) or between tags: the five
 * characters that could end either are written as references. For the few places that hand React
 * markup ready-made (ProductFilters' options); everything else lets React escape.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => REFERENCES[ch]!);
}

const REFERENCES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

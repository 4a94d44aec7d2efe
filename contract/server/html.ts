/**
 * Text made safe to stand in HTML the Worker writes itself (the payment sandbox's pages, the
 * emails), as a quoted attribute's value or between tags: the five characters that could end
 * either are written as references. The storefront has its own (app/lib/html.ts): app/ imports
 * nothing of worker/.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => REFERENCES[ch]!);
}

const REFERENCES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

import ar from "../../../locales/ar.json";
import en from "../../../locales/en.json";
import type { Lang } from "../env";
import { escapeHtml } from "../../lib/html";

/**
 * The messages' templates (issue 21): subject, plain text and SMS of every message the shop
 * sends live in the locale files' `mail` section (`{{name}}` placeholders, like the storefront's),
 * so a translator finds them beside the rest. The simple HTML email is made here from the same
 * text: paragraphs, its links made clickable, the direction of the language.
 */
const MAIL = { en: en.mail, ar: ar.mail } as const;

export type CodeTemplate = keyof typeof en.mail.code;
export type OrderTemplate = keyof typeof en.mail.order;

export interface RenderedMessage {
  subject: string;
  /** The plain-text body: the email's text part, or the SMS itself. */
  text: string;
  /** The email's HTML part; null for an SMS. */
  html: string | null;
}

/** Fills `{{name}}` placeholders; an unknown one stays visible rather than vanishing. */
export function fill(template: string, params: Record<string, string>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => params[key] ?? whole);
}

/** A small, safe HTML email: each line a paragraph, URLs as links, in the language's direction. */
export function emailHtml(lang: Lang, subject: string, lines: string[]): string {
  const dir = lang === "ar" ? "rtl" : "ltr";
  const paragraphs = lines
    .map((line) =>
      escapeHtml(line).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}" style="color:#0b5cad">${url}</a>`),
    )
    .map((line) => `<p style="margin:0 0 16px">${line}</p>`)
    .join("");
  return (
    `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f5f6f8;font-family:system-ui,'Segoe UI',Tahoma,sans-serif;color:#1c1f24">` +
    `<div dir="${dir}" style="max-width:560px;margin:0 auto;padding:24px;background:#fff;border-radius:8px;text-align:start;line-height:1.6">` +
    `${paragraphs}<p style="margin:24px 0 0;color:#5b6270">${escapeHtml(MAIL[lang].signature)}</p></div></body></html>`
  );
}

/** A one-time code or account notice (verify, reset, accountExists, emailChanged, staff). */
export function renderCodeMessage(lang: Lang, template: CodeTemplate, code: string): RenderedMessage {
  const { subject, text } = MAIL[lang].code[template];
  const body = fill(text, { code });
  return { subject, text: body, html: emailHtml(lang, subject, [body]) };
}

/**
 * An order message. Email: a greeting, the message, a link to the order; SMS: the short form.
 * `params` fills the template (number, total, amount, carrier, urls...).
 */
export function renderOrderMessage(
  lang: Lang,
  template: OrderTemplate,
  channel: "email" | "sms",
  params: Record<string, string> & { name: string; orderUrl: string },
): RenderedMessage {
  const mail = MAIL[lang];
  const messages = mail.order[template];
  const subject = fill(messages.subject, params);
  if (channel === "sms") return { subject, text: fill(messages.sms, { ...params, url: params.orderUrl }), html: null };
  const lines = [
    fill(mail.greeting, params),
    fill(messages.text, params),
    fill(mail.orderLink, { url: params.orderUrl }),
  ];
  return { subject, text: [...lines, mail.signature].join("\n\n"), html: emailHtml(lang, subject, lines) };
}

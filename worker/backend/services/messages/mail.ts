import type { Lang } from "../../env";
import { escapeHtml } from "../../../../contract/server/html";
import { msg, type Catalogue, type MessageKey } from "../../messages";

/**
 * The messages' templates: subject, plain text and SMS of every message the shop
 * sends live in the backend's message catalogue, its `mail` area (`{{name}}` placeholders, the
 * form the owner rewords them in), so a translator finds them beside the rest. The simple HTML email is made here from the same
 * text: paragraphs, its links made clickable, the direction of the language.
 */
export type CodeTemplate = keyof Catalogue["mail"]["code"];
export type OrderTemplate = keyof Catalogue["mail"]["order"];
export type ShopperTemplate = keyof Catalogue["mail"]["shopper"];

/** A text of the catalogue in one language. */
const mailText = (lang: Lang, key: MessageKey): string => msg(key)[lang];
export type StaffAlertTemplate = "staff_order" | "staff_return";

export interface RenderedMessage {
  subject: string;
  /** The plain-text body: the email's text part, or the SMS itself. */
  text: string;
  /** The email's HTML part; null for an SMS. */
  html: string | null;
}

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** Fills `{{name}}` placeholders; an unknown one stays visible rather than vanishing. */
export function fill(template: string, params: Record<string, string>): string {
  return template.replace(PLACEHOLDER, (whole, key: string) => params[key] ?? whole);
}

/**
 * The parameters that are links: the URLs the shop builds itself (`url`, `orderUrl`,
 * `trackingUrl`...). Only these become links in the HTML; every other value, and the template's
 * own text, stays text, so nothing a shopper or staff member typed is ever made clickable.
 */
const isLinkParam = (key: string) => /^url$|Url$/.test(key);

/** An absolute http(s) URL, the only kind of link a message carries. */
function isWebUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

/** A template line as HTML: its text escaped, its link parameters as links. */
export function fillHtml(template: string, params: Record<string, string>): string {
  let html = "";
  let from = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    html += escapeHtml(template.slice(from, match.index));
    const key = match[1]!;
    const value = params[key];
    if (value === undefined) html += escapeHtml(match[0]);
    else if (isLinkParam(key) && isWebUrl(value))
      html += `<a href="${escapeHtml(value)}" style="color:#0b5cad">${escapeHtml(value)}</a>`;
    else html += escapeHtml(value);
    from = match.index + match[0].length;
  }
  return html + escapeHtml(template.slice(from));
}

/**
 * The name a message greets its shopper by: the first word of what they typed, when it reads as
 * a name (letters, marks, an apostrophe or hyphen, at most a trailing dot). Anything else (a URL,
 * a domain, markup) is left out and the greeting has no name: a mail client makes links of what
 * looks like an address even in plain text, and the greeting is the shop's own voice.
 */
export function greetingName(typed: string): string {
  const first = typed.trim().split(/\s+/)[0] ?? "";
  return first.length <= 40 && /^[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*\.?$/u.test(first) ? first : "";
}

/** A small, safe HTML email: each line (already HTML, from `fillHtml`) a paragraph, in the language's direction. */
export function emailHtml(
  lang: Lang,
  subject: string,
  htmlLines: string[],
  signature = mailText(lang, "mail.signature"),
): string {
  const dir = lang === "ar" ? "rtl" : "ltr";
  const paragraphs = htmlLines.map((line) => `<p style="margin:0 0 16px">${line}</p>`).join("");
  return (
    `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f5f6f8;font-family:system-ui,'Segoe UI',Tahoma,sans-serif;color:#1c1f24">` +
    `<div dir="${dir}" style="max-width:560px;margin:0 auto;padding:24px;background:#fff;border-radius:8px;text-align:start;line-height:1.6">` +
    `${paragraphs}<p style="margin:24px 0 0;color:#5b6270">${escapeHtml(signature)}</p></div></body></html>`
  );
}

/** A one-time code or account notice (verify, reset, accountExists, emailChanged, staff). */
export function renderCodeMessage(lang: Lang, template: CodeTemplate, code: string): RenderedMessage {
  const subject = mailText(lang, `mail.code.${template}.subject`);
  const body = mailText(lang, `mail.code.${template}.text`);
  return { subject, text: fill(body, { code }), html: emailHtml(lang, subject, [fillHtml(body, { code })]) };
}

/**
 * An order message. Email: a greeting, the message, a link to the order; SMS: the short form.
 * `params` fills the template (number, total, amount, carrier, urls...); `name` is what the
 * shopper typed, and the greeting keeps it only when it reads as a name (`greetingName`).
 * `store`: the owner's wording of the email's subject and text (the store's settings, checked
 * there to hold no link of its own), and the store's name that signs it; the greeting, the link
 * to the order and the SMS stay the catalogue's.
 */
export function renderOrderMessage(
  lang: Lang,
  template: OrderTemplate,
  channel: "email" | "sms",
  params: Record<string, string> & { name: string; orderUrl: string },
  store: { wording?: { subject: string; text: string } | null; signature?: string } = {},
): RenderedMessage {
  const messages = {
    subject: mailText(lang, `mail.order.${template}.subject`),
    text: mailText(lang, `mail.order.${template}.text`),
    sms: mailText(lang, `mail.order.${template}.sms`),
    ...(store.wording ?? {}),
  };
  const signature = store.signature || mailText(lang, "mail.signature");
  const subject = fill(messages.subject, params);
  if (channel === "sms") return { subject, text: fill(messages.sms, { ...params, url: params.orderUrl }), html: null };
  const name = greetingName(params.name);
  const lines: [string, Record<string, string>][] = [
    name ? [mailText(lang, "mail.greeting"), { name }] : [mailText(lang, "mail.greetingNoName"), {}],
    [messages.text, params],
    [mailText(lang, "mail.orderLink"), { url: params.orderUrl }],
  ];
  return {
    subject,
    text: [...lines.map(([line, values]) => fill(line, values)), signature].join("\n\n"),
    html: emailHtml(
      lang,
      subject,
      lines.map(([line, values]) => fillHtml(line, values)),
      signature,
    ),
  };
}

/** An alert to a staff member about an order (a new paid order, a new return request): email only. */
export function renderStaffAlert(
  lang: Lang,
  template: StaffAlertTemplate,
  params: { number: string; total: string; url: string },
): RenderedMessage {
  const subject = fill(mailText(lang, `mail.staffAlert.${template}.subject`), params);
  const lines = [mailText(lang, `mail.staffAlert.${template}.text`), mailText(lang, "mail.staffAlert.open")];
  return {
    subject,
    text: [...lines.map((line) => fill(line, params)), mailText(lang, "mail.signature")].join("\n\n"),
    html: emailHtml(
      lang,
      subject,
      lines.map((line) => fillHtml(line, params)),
    ),
  };
}

/**
 * An invitation to the staff (services/console/staff-invitations.ts): who invites, for which role, the
 * address the invitee must sign in with, and the link to accept, valid until `until`. Email only.
 */
export function renderStaffInvitation(
  lang: Lang,
  params: {
    name: string;
    inviter: string;
    role: "owner" | "manager" | "support";
    email: string;
    url: string;
    until: string;
  },
  signature = mailText(lang, "mail.signature"),
): RenderedMessage {
  const values = { ...params, role: mailText(lang, `mail.staffInvitation.roles.${params.role}`), store: signature };
  const name = greetingName(params.name);
  const lines: [string, Record<string, string>][] = [
    name ? [mailText(lang, "mail.greeting"), { name }] : [mailText(lang, "mail.greetingNoName"), {}],
    [mailText(lang, "mail.staffInvitation.text"), values],
    [mailText(lang, "mail.staffInvitation.accept"), values],
    [mailText(lang, "mail.staffInvitation.expiry"), values],
  ];
  const subject = fill(mailText(lang, "mail.staffInvitation.subject"), values);
  return {
    subject,
    text: [...lines.map(([line, v]) => fill(line, v)), signature].join("\n\n"),
    html: emailHtml(
      lang,
      subject,
      lines.map(([line, v]) => fillHtml(line, v)),
      signature,
    ),
  };
}

/**
 * A message to a shopper outside their orders (services/messages/shopper-messages.ts): a
 * greeting when `params.name` reads as a name, the topic's text (each line a paragraph), and the
 * link that stops the topic, unless the template places `{{unsubscribeUrl}}` itself. SMS: the
 * short form with the same link.
 */
export function renderShopperMessage(
  lang: Lang,
  topic: ShopperTemplate,
  channel: "email" | "sms",
  params: Record<string, string> & { unsubscribeUrl: string },
): RenderedMessage {
  const template = (part: "subject" | "text" | "sms") => mailText(lang, `mail.shopper.${topic}.${part}`);
  const subject = fill(template("subject"), params);
  const stop = (text: string, line: MessageKey) => (text.includes("{{unsubscribeUrl}}") ? [] : [mailText(lang, line)]);
  if (channel === "sms") {
    const sms = [template("sms"), ...stop(template("sms"), "mail.unsubscribeSms")].join(" ");
    return { subject, text: fill(sms, params), html: null };
  }
  const name = greetingName(params.name ?? "");
  const lines: [string, Record<string, string>][] = [
    name ? [mailText(lang, "mail.greeting"), { name }] : [mailText(lang, "mail.greetingNoName"), {}],
    ...template("text")
      .split("\n")
      .map((line): [string, Record<string, string>] => [line, params]),
    ...stop(template("text"), "mail.unsubscribe").map((line): [string, Record<string, string>] => [line, params]),
  ];
  const signature = mailText(lang, "mail.signature");
  return {
    subject,
    text: [...lines.map(([line, values]) => fill(line, values)), signature].join("\n\n"),
    html: emailHtml(
      lang,
      subject,
      lines.map(([line, values]) => fillHtml(line, values)),
      signature,
    ),
  };
}

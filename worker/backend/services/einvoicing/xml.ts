import { DOMParser, type Element, type Node } from "@xmldom/xmldom";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { base64Of } from "./csr";

/**
 * The XML the e-invoices are written in and hashed by: a small builder for the documents the shop
 * writes, and XML Canonicalization 1.1 (without comments) of a parsed document, which ZATCA's
 * invoice hash is defined over. The hash is computed from the serialised text parsed back, so the
 * shop, its tests and the ZATCA stand-in hash exactly what is sent.
 */

export type XmlChild = XmlElement | string | null | undefined | false;
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlChild[];
}

/** An element; null, undefined and false children are left out, so optional parts read inline. */
export const el = (name: string, attrs: Record<string, string> = {}, ...children: (XmlChild | XmlChild[])[]) => ({
  name,
  attrs,
  children: children.flat(),
});

const escapeText = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#xD;");
const escapeAttr = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/"/g, "&quot;")
    .replace(/\t/g, "&#x9;")
    .replace(/\n/g, "&#xA;")
    .replace(/\r/g, "&#xD;");

/** The element as XML text, with no whitespace between elements (so nothing is left to canonicalise). */
export function serialize(node: XmlElement): string {
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
    .join("");
  const inner = node.children
    .filter((c): c is XmlElement | string => c !== null && c !== undefined && c !== false)
    .map((c) => (typeof c === "string" ? escapeText(c) : serialize(c)))
    .join("");
  return `<${node.name}${attrs}>${inner}</${node.name}>`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export const parseXml = (xml: string) => new DOMParser().parseFromString(xml, "text/xml");

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;

/**
 * Inclusive C14N 1.1 of an element (no comments): namespace declarations an ancestor already
 * rendered with the same value are dropped, declarations first (sorted by prefix) then attributes
 * (sorted by namespace URI and local name), empty elements written as start and end tags, and the
 * text escaped as the recommendation says. `inScope` holds the declarations rendered above.
 */
export function canonicalize(node: Element, inScope: ReadonlyMap<string, string> = new Map([["", ""]])): string {
  const scope = new Map(inScope);
  const declarations: [string, string][] = [];
  const attributes: { name: string; ns: string; local: string; value: string }[] = [];
  for (let i = 0; i < node.attributes.length; i++) {
    const a = node.attributes.item(i)!;
    if (a.name === "xmlns" || a.prefix === "xmlns") {
      const prefix = a.name === "xmlns" ? "" : a.localName!;
      if (inScope.get(prefix) !== a.value) declarations.push([prefix, a.value]);
      scope.set(prefix, a.value);
    } else attributes.push({ name: a.name, ns: a.namespaceURI ?? "", local: a.localName ?? a.name, value: a.value });
  }
  declarations.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  attributes.sort((a, b) => (a.ns === b.ns ? (a.local < b.local ? -1 : 1) : a.ns < b.ns ? -1 : 1));
  let out = `<${node.nodeName}`;
  for (const [prefix, uri] of declarations) out += `${prefix ? ` xmlns:${prefix}` : " xmlns"}="${escapeAttr(uri)}"`;
  for (const a of attributes) out += ` ${a.name}="${escapeAttr(a.value)}"`;
  out += ">";
  for (let child: Node | null = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === ELEMENT) out += canonicalize(child as Element, scope);
    else if (child.nodeType === TEXT || child.nodeType === CDATA)
      out += escapeText((child as unknown as { data: string }).data);
  }
  return `${out}</${node.nodeName}>`;
}

const childElements = (node: Element): Element[] => {
  const out: Element[] = [];
  for (let c: Node | null = node.firstChild; c; c = c.nextSibling) if (c.nodeType === ELEMENT) out.push(c as Element);
  return out;
};

/** The first child element with this local name. */
export const child = (node: Element, local: string): Element | undefined =>
  childElements(node).find((c) => c.localName === local);

export const textOf = (node: Element | undefined): string => (node?.textContent ?? "").trim();

export { childElements };

/**
 * ZATCA's invoice hash: SHA-256 over the canonical document without its UBL extensions (the
 * signature), its cac:Signature and its QR reference, the three transforms the signature names.
 * Returned as ZATCA writes it: the digest in base64.
 */
export function invoiceHash(xml: string): { base64: string; bytes: Uint8Array } {
  const root = parseXml(xml).documentElement;
  if (!root) throw new Error("Not an XML document");
  for (const c of childElements(root)) {
    const qr = c.localName === "AdditionalDocumentReference" && textOf(child(c, "ID")) === "QR";
    if (c.localName === "UBLExtensions" || c.localName === "Signature" || qr) root.removeChild(c);
  }
  const bytes = sha256(new TextEncoder().encode(canonicalize(root)));
  return { base64: base64Of(bytes), bytes };
}

/** ZATCA writes some digests as the base64 of their hex text (the certificate's, the signed properties'). */
export const hexDigestBase64 = (text: string) => btoa(bytesToHex(sha256(new TextEncoder().encode(text))));

/** The namespace declarations an element inherits from its ancestors (for canonicalising a part). */
export function inheritedNamespaces(node: Element): Map<string, string> {
  const chain: Element[] = [];
  for (let p = node.parentNode; p && p.nodeType === ELEMENT; p = p.parentNode) chain.unshift(p as Element);
  const scope = new Map([["", ""]]);
  for (const e of chain)
    for (let i = 0; i < e.attributes.length; i++) {
      const a = e.attributes.item(i)!;
      if (a.name === "xmlns") scope.set("", a.value);
      else if (a.prefix === "xmlns") scope.set(a.localName!, a.value);
    }
  return scope;
}

/** The first descendant element with this local name (depth first). */
export function descendant(node: Element, local: string): Element | undefined {
  for (const c of childElements(node)) {
    if (c.localName === local) return c;
    const found = descendant(c, local);
    if (found) return found;
  }
  return undefined;
}

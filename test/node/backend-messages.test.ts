import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The backend's message catalogue (worker/backend/messages/) is held to what the storefront's
// locale files are held to (test/unit/locales.test.ts): both languages carry the same keys, no
// text is empty, a placeholder in one language is in the other. And, since the catalogue is the
// backend's only place for words: every key is read by the backend's code, and no bilingual text
// is written inline in that code, so a message added the old way fails here.

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const HOUSE = "worker/backend";
const CATALOGUE = `${HOUSE}/messages/`;
/** Arabic in the catalogue folder's search code is letters to fold and stem (arabic.ts, analysis.ts), not messages. */
const ARABIC_ALLOWED = [`${HOUSE}/services/catalogue/`];

/** Every text of a catalogue file as `dotted.key → text`; a value that is neither text nor a group is reported. */
function leaves(node: unknown, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (value && typeof value === "object" && !Array.isArray(value))
      for (const [k, v] of leaves(value, `${prefix}${key}.`)) out.set(k, v);
    else out.set(`${prefix}${key}`, value);
  }
  return out;
}

const read = (lang: "en" | "ar"): unknown => JSON.parse(readFileSync(join(ROOT, CATALOGUE, `${lang}.json`), "utf8"));
const EN = leaves(read("en"));
const AR = leaves(read("ar"));

/** The names of a text's placeholders: `{name}`, and `{{name}}` in the `mail` area. */
const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

const posix = (path: string) => path.split(sep).join("/");
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const ARABIC_LETTER = /[\u0621-\u064A]/;

export interface SourceFacts {
  /** Every string literal's text. */
  strings: Set<string>;
  /**
   * Every template literal that starts with a key's first segments (`mail.code.${t}.subject`) as a
   * pattern, each `${…}` standing for one segment; a template opening on a value names no key.
   */
  patterns: RegExp[];
  /** `line: what` for each bilingual text written inline: a `{ en, ar }` literal, or Arabic in a string. */
  inline: string[];
}

/** What one source file says: its strings and templates (the keys it reads), and any inline bilingual text. */
export function factsOf(path: string, text: string, arabicAllowed = false): SourceFacts {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const facts: SourceFacts = { strings: new Set(), patterns: [], inline: [] };
  const line = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  /** A literal's text parts (a template's literal parts), or none for any other expression. */
  const textsOf = (node: ts.Node | undefined): string[] =>
    !node
      ? []
      : ts.isStringLiteralLike(node)
        ? [node.text]
        : ts.isTemplateExpression(node)
          ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)]
          : [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node)) {
      facts.strings.add(node.text);
      if (!arabicAllowed && ARABIC_LETTER.test(node.text)) facts.inline.push(`${line(node)}: Arabic text`);
    } else if (ts.isTemplateExpression(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
      if (/^[a-z]\w*\.\w/.test(parts[0]!)) facts.patterns.push(new RegExp(`^${parts.map(escapeRegex).join("[^.]+")}$`));
      if (!arabicAllowed && parts.some((part) => ARABIC_LETTER.test(part)))
        facts.inline.push(`${line(node)}: Arabic text`);
    } else if (ts.isObjectLiteralExpression(node)) {
      const value = (name: string) =>
        node.properties.find(
          (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText(source) === name,
        )?.initializer;
      // A per-language table of codes ({ en: "en-US", ar: "ar-SA" }) is no message: only Arabic words make one.
      if (!arabicAllowed && value("en") && textsOf(value("ar")).some((part) => ARABIC_LETTER.test(part)))
        facts.inline.push(`${line(node)}: { en, ar } literal`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return facts;
}

/** The facts of every backend file outside the catalogue, by path from the root. */
function backendFacts(): Map<string, SourceFacts> {
  const out = new Map<string, SourceFacts>();
  for (const file of sourceFiles(join(ROOT, HOUSE))) {
    const name = posix(relative(ROOT, file));
    if (name.startsWith(CATALOGUE)) continue;
    const allowed = ARABIC_ALLOWED.some((folder) => name.startsWith(folder));
    out.set(name, factsOf(name, readFileSync(file, "utf8"), allowed));
  }
  return out;
}

describe("the backend's message catalogue", () => {
  it("English and Arabic carry exactly the same keys, each a text", () => {
    expect([...AR.keys()].sort()).toEqual([...EN.keys()].sort());
    expect(EN.size).toBeGreaterThan(250);
    for (const [key, value] of [...EN, ...AR]) expect(typeof value, key).toBe("string");
  });

  it("no message is empty in either language", () => {
    for (const [name, texts] of [
      ["en", EN],
      ["ar", AR],
    ] as const)
      for (const [key, text] of texts) expect(text, `${name}:${key}`).toMatch(/\S/);
  });

  it("a placeholder used in English is used in Arabic too, and no other", () => {
    for (const [key, text] of EN) expect(placeholders(String(AR.get(key))), key).toEqual(placeholders(String(text)));
  });

  it("every key is read somewhere in worker/backend: by its whole name, or by a template naming its shape", () => {
    const facts = [...backendFacts().values()];
    const strings = new Set(facts.flatMap((f) => [...f.strings]));
    const patterns = facts.flatMap((f) => f.patterns);
    const unused = [...EN.keys()].filter((key) => !strings.has(key) && !patterns.some((p) => p.test(key)));
    expect(unused).toEqual([]);
  });

  it("no bilingual text is written inline in worker/backend: every message comes from the catalogue", () => {
    const inline = [...backendFacts()].flatMap(([file, facts]) => facts.inline.map((where) => `${file}:${where}`));
    expect(inline).toEqual([]);
  });

  it("an inline { en, ar } literal and Arabic in a string or template are each reported, and keys are read", () => {
    const facts = factsOf(
      "x.ts",
      [
        'const A = { en: "Hi", ar: "أهلًا" };',
        "const B = { en: `Only ${n} left`, ar: `بقي ${n}` };",
        'const C = "مرحبا";',
        "const D = `تبقى ${n}`;",
        'const E = msg("orders.promo.usedUp");',
        "const F = msg(`mail.code.${t}.subject`);",
        "const G = { en: field, ar: field };",
        'const H = { en: "en-US", ar: "ar-SA" };',
      ].join("\n"),
    );
    expect(facts.inline).toEqual([
      "1: { en, ar } literal",
      "1: Arabic text",
      "2: { en, ar } literal",
      "2: Arabic text",
      "3: Arabic text",
      "4: Arabic text",
    ]);
    expect(facts.strings.has("orders.promo.usedUp")).toBe(true);
    expect(facts.patterns.some((p) => p.test("mail.code.verify.subject"))).toBe(true);
    expect(facts.patterns.some((p) => p.test("mail.code.verify.text"))).toBe(false);
    expect(factsOf("z.ts", "const k = `${area}.${name}`;").patterns).toEqual([]);
    expect(factsOf("y.ts", 'const stem = "ال";', true).inline).toEqual([]);
  });
});

import { readdirSync, readFileSync } from "node:fs";
import { extname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// A comment says why, in words a reader without the tracker understands: no issue or pull-request
// numbers and no calendar dates, which age and point nowhere (FORBIDDEN below). Strings, test data
// and SQL values may hold dates; only comments are read. Locale JSON and the seeds' JSON are data
// with no comments, so they are not read.

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const FOLDERS = ["app", "worker", "contract", "scripts", "test"];
const ROOT_FILES = [
  "vite.config.ts",
  "vitest.config.ts",
  "react-router.config.ts",
  "eslint.config.js",
  "wrangler.toml",
];

type Syntax = "script" | "css" | "sql" | "toml";
const SYNTAX: Record<string, Syntax> = {
  ".ts": "script",
  ".tsx": "script",
  ".js": "script",
  ".mjs": "script",
  ".css": "css",
  ".sql": "sql",
  ".toml": "toml",
};

const FORBIDDEN: [string, RegExp][] = [
  ["an issue number", /\bissues? ?#?\d+/i],
  ["a tracker number", /(?:^|[\s(])#\d+\b/],
  ["a date", /\b(?:19|20)\d{2}-(?:0[1-9]|1[0-2])(?:-\d{2})?\b/],
];

function files(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(path));
    else if (SYNTAX[extname(entry.name)]) out.push(path);
  }
  return out;
}

/** Regex literals start where an operand is expected: after one of these, or at the start. */
const BEFORE_REGEX = new Set([
  "",
  "(",
  ",",
  "=",
  ":",
  "[",
  "!",
  "&",
  "|",
  "?",
  "{",
  "}",
  ";",
  "+",
  "-",
  "*",
  "%",
  "<",
  ">",
  "~",
  "^",
]);

/**
 * The comments of a source file, each with the line it starts on: strings (template literals with
 * their `${}` included), regex literals and code are skipped.
 */
function comments(text: string, syntax: Syntax): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const lineAt = (i: number) => text.slice(0, i).split("\n").length;
  const lineComment = syntax === "script" ? "//" : syntax === "sql" ? "--" : syntax === "toml" ? "#" : null;
  const quotes =
    syntax === "script" ? ["'", '"', "`"] : syntax === "css" ? ["'", '"'] : syntax === "sql" ? ["'"] : ['"', "'"];
  // Template literals nest: each `${` opens code whose closing brace returns to the template.
  const braces: number[] = [];
  let depth = 0;
  let last = "";
  let i = 0;
  const skipString = (quote: string): void => {
    i++;
    while (i < text.length && text[i] !== quote) {
      if (text[i] === "\\") i++;
      else if (quote === "`" && text.startsWith("${", i)) {
        braces.push(depth);
        depth++;
        i += 2;
        return;
      }
      i++;
    }
    i++;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (lineComment && text.startsWith(lineComment, i)) {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      out.push({ line: lineAt(i), text: text.slice(i, stop) });
      i = stop;
    } else if (syntax !== "toml" && text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out.push({ line: lineAt(i), text: text.slice(i, stop) });
      i = stop;
    } else if (quotes.includes(c)) {
      skipString(c);
      last = "x";
    } else if (
      syntax === "script" &&
      c === "/" &&
      (BEFORE_REGEX.has(last) || /\breturn$/.test(text.slice(0, i).trimEnd()))
    ) {
      i++;
      let inClass = false;
      while (i < text.length && text[i] !== "\n" && (inClass || text[i] !== "/")) {
        if (text[i] === "\\") i++;
        else if (text[i] === "[") inClass = true;
        else if (text[i] === "]") inClass = false;
        i++;
      }
      i++;
      last = "x";
    } else {
      if (syntax === "script" && c === "{") depth++;
      if (syntax === "script" && c === "}") {
        depth--;
        if (braces.length && braces[braces.length - 1] === depth) {
          braces.pop();
          // Back inside the template literal: read on to its end or its next `${`.
          i--;
          skipString("`");
          last = "x";
          continue;
        }
      }
      if (!/\s/.test(c)) last = /[\w$)\]]/.test(c) ? "x" : c;
      i++;
    }
  }
  return out;
}

function offences(text: string, syntax: Syntax): string[] {
  const found: string[] = [];
  for (const comment of comments(text, syntax)) {
    comment.text.split("\n").forEach((line, k) => {
      for (const [what, pattern] of FORBIDDEN) {
        if (pattern.test(line)) found.push(`${comment.line + k}: ${what}: ${line.trim()}`);
      }
    });
  }
  return found;
}

describe("comments name no issue numbers and no dates", () => {
  it("every comment in the source says why without a tracker number or a date", () => {
    const paths = [...FOLDERS.flatMap((f) => files(join(ROOT, f))), ...ROOT_FILES.map((f) => join(ROOT, f))];
    const found = paths.flatMap((path) =>
      offences(readFileSync(path, "utf8"), SYNTAX[extname(path)]!).map((o) => `${relative(ROOT, path)}:${o}`),
    );
    expect(found).toEqual([]);
  });

  it("finds them in comments of each syntax, and not in strings, templates or regexes", () => {
    const script = [
      'const a = "issue 23, 2026-11-29"; // a string is data',
      "const b = `#418 ${x ? `2026-11-29` : /issue 7/.test(y)} issue 8`;",
      "const c = /\\/\\/ issue 9/; // Acceptance targets (issue 8).",
      "/* Measured 2026-11-29. */",
      "// React's error #418",
    ].join("\n");
    expect(offences(script, "script")).toEqual([
      "3: an issue number: // Acceptance targets (issue 8).",
      "4: a date: /* Measured 2026-11-29. */",
      "5: a tracker number: // React's error #418",
    ]);
    expect(offences("a { color: #111; background: url(//x/2026-11-29); } /* issue 21 */", "css")).toEqual([
      "1: an issue number: /* issue 21 */",
    ]);
    expect(offences("INSERT INTO t VALUES ('2026-11-29'); -- since 2026-11", "sql")).toEqual([
      "1: a date: -- since 2026-11",
    ]);
    expect(offences('date = "2026-10-01"\n# issue 23: field data', "toml")).toEqual([
      "2: an issue number: # issue 23: field data",
    ]);
  });
});

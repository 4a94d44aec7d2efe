// Arbitraries shared by the fuzz suites (fuzz.test.ts, console-fuzz.test.ts): what people and
// attackers send, as bodies, query strings and path segments, and what an answer must never show.
import fc from "fast-check";

/** Strings people and attackers actually send. */
export const nasty = fc.constantFrom(
  "",
  " ",
  "' OR '1'='1",
  "1; DROP TABLE products; --",
  '" OR ""="',
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "${7*7}{{7*7}}",
  "../../../../etc/passwd",
  "%00",
  "\u0000",
  "\u202e\u200f\u200b\u200d\ufeff",
  "👩‍👩‍👧‍👦🔥💥",
  "\ud800",
  "آيْفُون ١٥ برو",
  "NEAR(a b)",
  'a" OR b*',
  "*",
  "())(",
  "-1",
  "0",
  "1e309",
  "9".repeat(40),
  "NaN",
  "true",
  "null",
  "[]",
  "{}",
  "a".repeat(70_000),
);
export const hugeNumber = fc.constantFrom(
  -1,
  0,
  -0,
  2 ** 31,
  2 ** 53 + 1,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_VALUE,
  1e308,
  0.5,
);
export const value: fc.Arbitrary<unknown> = fc.oneof(
  nasty,
  hugeNumber,
  fc.string({ maxLength: 300 }),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 20 }), fc.integer()), { maxKeys: 4 }),
);

/** A body: broken JSON, a JSON value of the wrong shape, or the right fields with wrong values (plus extras). */
export function bodyFor(fields: string[]): fc.Arbitrary<string> {
  const broken = fc.constantFrom(
    '{"a":',
    "{",
    "nul",
    "[1,2",
    '{"product_id": 1,}',
    "\u0000\u0001",
    "<xml/>",
    '{"__proto__": {"admin": true}}',
    '{"constructor": {"prototype": {"x": 1}}}',
  );
  const wrongShape = fc.anything({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? "null");
  const fieldsShape = fields.length
    ? fc
        .record(Object.fromEntries(fields.map((f) => [f, value])), { requiredKeys: [] })
        .chain((rec) =>
          fc.dictionary(fc.string({ maxLength: 10 }), value, { maxKeys: 2 }).map((extra) => ({ ...extra, ...rec })),
        )
        .map((v) => JSON.stringify(v))
    : fc.constant("{}");
  return fc.oneof(broken, wrongShape, fieldsShape, fieldsShape);
}

export const segment = fc.oneof(
  nasty.map((s) => s.slice(0, 200)),
  fc.string({ maxLength: 60 }),
  fc.integer().map(String),
  fc.constant("1"),
);

export function queryFor(fields: string[]): fc.Arbitrary<string> {
  if (!fields.length) return fc.constant("");
  return fc.record(Object.fromEntries(fields.map((f) => [f, value])), { requiredKeys: [] }).map((rec) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(rec))
      qs.append(k, typeof v === "string" ? v.slice(0, 5000) : (JSON.stringify(v) ?? ""));
    return qs.toString();
  });
}

export const internals =
  /\bat \w[\w.]* \(|\.ts:\d+:\d+|\.js:\d+:\d+|SQLITE_|D1_ERROR|\bSELECT\b.*\bFROM\b|\bINSERT INTO\b|\bUPDATE \w+ SET\b|TypeError|ReferenceError/;

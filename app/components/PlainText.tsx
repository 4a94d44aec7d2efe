/** A block of the backend's plain-text bodies: a heading (a line starting `## `) or a paragraph. */
export type TextBlock = { kind: "heading"; text: string } | { kind: "paragraph"; lines: string[] };

/** Paragraphs are separated by a blank line; a line starting `## ` is a heading of its own. */
export function parsePlainText(body: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  for (const chunk of body.replace(/\r\n?/g, "\n").split(/\n\s*\n/)) {
    let lines: string[] = [];
    const flush = () => {
      if (lines.length) blocks.push({ kind: "paragraph", lines });
      lines = [];
    };
    for (const raw of chunk.split("\n")) {
      const line = raw.trim();
      if (!line) continue;
      if (line.startsWith("## ")) {
        flush();
        blocks.push({ kind: "heading", text: line.slice(3).trim() });
      } else lines.push(line);
    }
    flush();
  }
  return blocks;
}

/**
 * Renders plain text as elements (headings and paragraphs), never as HTML, so nothing in a body
 * can inject markup. `level` is the heading level the `## ` lines become.
 */
export function PlainText({ body, level = 2, className }: { body: string; level?: 2 | 3; className?: string }) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <div className={["prose", className ?? ""].filter(Boolean).join(" ")}>
      {parsePlainText(body).map((block, i) =>
        block.kind === "heading" ? (
          <Heading key={i}>{block.text}</Heading>
        ) : (
          <p key={i}>
            {block.lines.map((line, j) => (
              <span key={j}>
                {j > 0 ? <br /> : null}
                {line}
              </span>
            ))}
          </p>
        ),
      )}
    </div>
  );
}

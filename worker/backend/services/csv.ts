/**
 * CSV as RFC 4180 writes it (the console's product export and import, issue 20): fields separated
 * by commas, records by CRLF; a field holding a comma, a quote or a line break is quoted, its
 * quotes doubled. Small enough to own rather than add a dependency to the Worker.
 */

/** UTF-8's byte order mark: Excel reads a CSV as UTF-8 (Arabic included) only when it starts with it. */
export const BOM = "\uFEFF";

export function csvField(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: unknown[]): string {
  return values.map(csvField).join(",");
}

/** A whole file: a BOM, then each record ended by CRLF. */
export function csvText(rows: unknown[][]): string {
  return BOM + rows.map((r) => `${csvLine(r)}\r\n`).join("");
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Parses CSV text into records of fields. Accepts CRLF or LF, a leading BOM, a last record with or
 * without its line break; blank lines are skipped. An unclosed quote, or text straight after a
 * closing quote, is a syntax error naming the line it started on.
 */
export function parseCsv(input: string): string[][] {
  const text = input.startsWith(BOM) ? input.slice(1) : input;
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let i = 0;
  const endField = () => {
    record.push(field);
    field = "";
  };
  const endRecord = () => {
    endField();
    if (!(record.length === 1 && record[0] === "")) records.push(record);
    record = [];
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        const next = text[i];
        if (next !== undefined && next !== "," && next !== "\n" && next !== "\r")
          throw new CsvSyntaxError(line, "text after a closing quote");
        continue;
      }
      if (ch === "\n") line++;
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === "") {
      quoted = true;
      recordLine = record.length === 0 ? line : recordLine;
      i++;
    } else if (ch === ",") {
      endField();
      i++;
    } else if (ch === "\r" || ch === "\n") {
      endRecord();
      i += ch === "\r" && text[i + 1] === "\n" ? 2 : 1;
      line++;
      recordLine = line;
    } else {
      field += ch;
      i++;
    }
  }
  if (quoted) throw new CsvSyntaxError(recordLine, "a quoted field is not closed");
  if (field !== "" || record.length > 0) endRecord();
  return records;
}

/**
 * CSV as RFC 4180 writes it (the console's product export and import): fields separated
 * by commas, records by CRLF; a field holding a comma, a quote or a line break is quoted, its
 * quotes doubled. Small enough to own rather than add a dependency to the Worker.
 */

/** UTF-8's byte order mark: Excel reads a CSV as UTF-8 (Arabic included) only when it starts with it. */
export const BOM = "\uFEFF";

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first), behind any quote marks
 * already there. Such a cell is written behind one more quote mark, which spreadsheets read as
 * "text" and hide, and `csvCell` takes that one off again on import: a product named
 * `=HYPERLINK(...)` by one manager is never a live link in another's spreadsheet, and a value that
 * really starts with a quote mark still comes back as typed.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

export function csvField(value: unknown): string {
  const raw = value === null || value === undefined ? "" : String(value);
  const text = FORMULA_START.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** An imported cell as it was before `csvField` wrote it: the one quote mark it added taken off. */
export function csvCell(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
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

export class CsvTooWide extends CsvSyntaxError {
  constructor(
    line: number,
    /** Which record (0: the first, a file's header) was too wide. */
    readonly record: number,
    readonly maxFields: number,
  ) {
    super(line, `more than ${maxFields} fields`);
  }
}

/**
 * Parses CSV text into records of fields. Accepts CRLF or LF, a leading BOM, a last record with or
 * without its line break; blank lines are skipped. An unclosed quote, or text straight after a
 * closing quote, is a syntax error naming the line it started on; a record of more than
 * `maxFields` fields is `CsvTooWide`.
 */
export function parseCsv(input: string, opts: { maxFields?: number } = {}): string[][] {
  const maxFields = opts.maxFields ?? Infinity;
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
    // A record wider than any the caller reads stops the parse at once, before it costs more.
    if (record.length > maxFields) throw new CsvTooWide(recordLine, records.length, maxFields);
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

import type { CsvImportReport } from "../../../contract/console-catalogue-shapes";
import { countOf } from "../../lib/plural";
import { useLocale, useT } from "../../lib/use-locale";

/** What a CSV check or import found: the counts, and a table of the bad rows' fields and messages. */
export function CsvReport({ report }: { report: CsvImportReport }) {
  const t = useT();
  const locale = useLocale();
  const count = (key: string, n: number) => countOf(t, locale, `console.productsCsv.${key}`, n);
  const products = { created: count("products", report.created), updated: count("products", report.updated) };
  const fieldName = (field: string) => {
    const key = `console.fields.${field}`;
    const label = t(key);
    return label === key ? field : label;
  };
  // The answer lists at most the first CSV_REPORT_MAX_ERRORS errors; `error_count` is them all.
  const total = Math.max(report.error_count, report.errors.length);
  const summary = report.errors.length
    ? total > report.errors.length
      ? t("console.products.reportErrorsFirst", { n: total, shown: report.errors.length })
      : t("console.productsCsv.errorsSummary", {
          errors: count("errors", report.errors.length),
          rows: count("inRows", new Set(report.errors.map((e) => e.row)).size),
        })
    : report.written
      ? t("console.productsCsv.imported", products)
      : t("console.productsCsv.good", products);
  // The heading says what happened: a check, an import, or an import refused for bad rows.
  const heading = report.dry_run
    ? t("console.productsCsv.headingChecked")
    : report.written
      ? t("console.productsCsv.headingImported")
      : t("console.productsCsv.headingRefused");
  return (
    <section className="console-panel console-import__report" aria-labelledby="import-report" aria-live="polite">
      <h2 id="import-report">{heading}</h2>
      <p role="status">{summary}</p>
      {report.errors.length ? (
        <div className="console-table">
          {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region is focusable (axe: scrollable-region-focusable) */}
          <div className="console-table__scroll" tabIndex={0} role="region" aria-label={heading}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("console.products.row")}</th>
                  <th scope="col">{t("console.products.field")}</th>
                  <th scope="col">{t("console.products.problem")}</th>
                </tr>
              </thead>
              <tbody>
                {report.errors.map((e, i) => (
                  <tr key={i}>
                    <td>{e.row}</td>
                    <td>
                      <bdi>{fieldName(e.field)}</bdi>
                    </td>
                    <td>{e.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </section>
  );
}

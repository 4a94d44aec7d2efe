import { useState } from "react";
import { useNavigate } from "react-router";
import { Link } from "../../lib/link";
import type { Route } from "./+types/products-import";
import { CSV_MAX_BYTES, CSV_MAX_ROWS, type CsvImportReport } from "../../../contract/console-catalogue-shapes";
import { CsvReport } from "../../components/console/CsvReport";
import { toast } from "../../client/toast";
import { browserApi } from "../../lib/api/browser";
import { handleBrowserError } from "../../lib/browser-errors";
import { ApiError } from "../../lib/api/errors";
import { exportVariants, importProducts, productsTemplate } from "../../lib/api/console-catalogue";
import { saveFile, useBackendBase } from "../../lib/console-files";
import { countOf } from "../../lib/plural";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { useLocale, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.products.importTitle");

/** Importing is a manager's (the API says so too); support gets the same 404 as a stranger. */
export async function loader(args: Route.LoaderArgs) {
  return consoleLoad(args, async () => null, { role: "manager" });
}

/** Import products from CSV: "Check" lists every row's errors; "Import" only once the check found none. */
export default function ConsoleProductsImport() {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const backend = useBackendBase();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<CsvImportReport | null>(null);
  const [busy, setBusy] = useState(false);
  // A products file (a row per product) or a variants file (a row per variant of a product).
  const [kind, setKind] = useState<"products" | "variants">("products");

  const send = async (dryRun: boolean) => {
    if (!file) return;
    setBusy(true);
    const id = toast.loading(dryRun ? t("console.products.checking") : t("console.products.importing"));
    try {
      const answer = await importProducts(browserApi(locale), backend, file, dryRun, kind);
      setReport(answer.data);
      if (answer.data.errors.length) toast.error(t("console.products.checkFailed"), { id });
      else if (dryRun) toast.success(t("console.products.checkPassed"), { id });
      else if (kind === "variants")
        toast.success(
          t("console.variantsCsv.imported", { created: answer.data.created, updated: answer.data.updated }),
          { id },
        );
      else
        toast.success(
          t("console.productsCsv.imported", {
            created: countOf(t, locale, "console.productsCsv.products", answer.data.created),
            updated: countOf(t, locale, "console.productsCsv.products", answer.data.updated),
          }),
          { id },
        );
    } catch (error) {
      toast.dismiss(id);
      // A refused import (a row went bad since the check) answers its report too.
      const body = error instanceof ApiError ? (error.body as { data?: CsvImportReport } | undefined) : undefined;
      if (body?.data?.errors) setReport(body.data);
      else handleBrowserError(error, locale, (path) => void navigate(path));
    } finally {
      setBusy(false);
    }
  };

  const template = async () => {
    try {
      saveFile(await productsTemplate(browserApi(locale), backend), "products-template.csv");
    } catch (error) {
      handleBrowserError(error, locale, (path) => void navigate(path));
    }
  };

  const variants = async () => {
    try {
      saveFile(await exportVariants(browserApi(locale), backend), "variants.csv");
    } catch (error) {
      handleBrowserError(error, locale, (path) => void navigate(path));
    }
  };

  const checked = report !== null && report.dry_run && report.errors.length === 0;
  return (
    <>
      <p>
        <Link to={`/${locale}/admin/products`}>{t("console.products.back")}</Link>
      </p>
      <h1>{t("console.products.importTitle")}</h1>
      <section className="console-panel" aria-labelledby="import-file">
        <h2 id="import-file">{t("console.products.importFile")}</h2>
        <p className="console-hint" id="import-hint">
          {t("console.products.importHint", { rows: CSV_MAX_ROWS, mb: CSV_MAX_BYTES / 1024 / 1024 })}
        </p>
        <div className="console-actions">
          <button type="button" className="button" onClick={() => void template()} aria-describedby="template-hint">
            {t("console.productsCsv.template")}
          </button>
        </div>
        <p className="console-hint" id="template-hint">
          {t("console.productsCsv.templateHint")}
        </p>
        <details className="console-import__columns">
          <summary>{t("console.productsCsv.columnsTitle")}</summary>
          <ul>
            {(["required", "price", "category", "counts"] as const).map((key) => (
              <li key={key}>{t(`console.productsCsv.columns.${key}`)}</li>
            ))}
          </ul>
        </details>
        <fieldset className="field">
          <legend>{t("console.variantsCsv.kind")}</legend>
          {(["products", "variants"] as const).map((k) => (
            <label key={k} className="radio">
              <input
                type="radio"
                name="import-kind"
                value={k}
                checked={kind === k}
                onChange={() => {
                  setKind(k);
                  setReport(null);
                }}
              />{" "}
              {t(`console.variantsCsv.kinds.${k}`)}
            </label>
          ))}
        </fieldset>
        {kind === "variants" ? (
          <div className="console-hint">
            <p>{t("console.variantsCsv.hint")}</p>
            <button type="button" className="button" onClick={() => void variants()}>
              {t("console.variantsCsv.export")}
            </button>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="import-csv">{t("console.fields.file")}</label>
          <input
            id="import-csv"
            type="file"
            accept=".csv,text/csv"
            aria-describedby="import-hint"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setReport(null);
            }}
          />
        </div>
        <div className="console-actions">
          <button type="button" className="button" disabled={!file || busy} onClick={() => void send(true)}>
            {t("console.products.check")}
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={!checked || busy}
            aria-describedby="import-why"
            onClick={() => void send(false)}
          >
            {t("console.products.importButton")}
          </button>
        </div>
        <p className="console-hint" id="import-why">
          {t("console.products.importAfterCheck")}
        </p>
      </section>
      {report ? <CsvReport report={report} /> : null}
    </>
  );
}

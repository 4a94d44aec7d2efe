-- The store's settings, edited by owners in the console (services/settings.ts): one row per
-- section (shipping, tax, seller, store, returns, messages), its value JSON checked by the
-- section's schema (contract/settings.ts) before it is written. A section without a row reads its
-- defaults (the deployment's variables, then the built-in values), so a shop that never opens the
-- page keeps its behaviour.
CREATE TABLE store_settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL CHECK (json_valid(value)),
  version INTEGER NOT NULL DEFAULT 1,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_by TEXT
);

-- A tax document keeps the seller it was issued under (JSON: names, VAT number, addresses), so a
-- later change of the seller in the settings does not rewrite documents already issued. Null for
-- documents issued while the seller came from the deployment's variables: they read those until
-- the first save from the console writes them in.
ALTER TABLE tax_documents ADD COLUMN seller TEXT CHECK (seller IS NULL OR json_valid(seller));

-- Kept suggestions (services/search-kept.ts): type-ahead's window for a prefix that
-- matches many products, its 64 best matches by name as [id, BM25 score] pairs, ranked once under
-- the `search` version and read until that version moves. Type-ahead then reads 64 products, not
-- every product the prefix matches.
CREATE TABLE search_kept_suggestions (
  query TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  ranked TEXT NOT NULL
) WITHOUT ROWID;

-- A kept search's rows hold each index's own score of the product (null where that index did not
-- find it), so that the kept copies of single words rank a search of several words without
-- scoring every match (services/catalogue/search-ranking.ts `composedMatches`). Copies kept
-- before this have no such scores: the `search` version moves, so every copy is stale, never read
-- again, and kept anew (with the scores) by the next search for it.
ALTER TABLE search_kept_rows ADD COLUMN names_score REAL;
ALTER TABLE search_kept_rows ADD COLUMN details_score REAL;
UPDATE versions SET value = value + 1 WHERE name = 'search';

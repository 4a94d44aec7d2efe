-- Who asked for a query that has no kept copy yet (services/search-kept.ts): one row per query and
-- network, the network as stored elsewhere (an HMAC under the pepper, services/rate-limit.ts). A
-- query is kept only once several distinct networks searched for it, so one network's distinct
-- broad queries cannot fill the kept-search budget. Rows older than a day are cleared as new ones
-- come in. A new table only: nothing existing changes.
CREATE TABLE search_keep_votes (
  query TEXT NOT NULL,
  network TEXT NOT NULL,
  seen_at INTEGER NOT NULL,
  PRIMARY KEY (query, network)
) WITHOUT ROWID;

CREATE INDEX search_keep_votes_seen ON search_keep_votes(seen_at);

-- A signed-in shopper's comparison pick (contract/comparison.ts): the products they picked to
-- compare, by slug, and the top-level category they belong to. One pick per account; a guest's
-- stays in the browser. Slugs, not ids: a comparison is shared and opened by its URL, which names
-- slugs, and a product gone since is left out when the page is read.
CREATE TABLE comparisons (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  grp TEXT NOT NULL,
  slugs TEXT NOT NULL CHECK (json_valid(slugs) AND json_type(slugs) = 'array'),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Reviews, continued (0050): when a review was first published and last edited after that (the
-- "edited" mark), each photo's thumbnail, the products' rating kept exact by triggers, and the
-- review invitations the cron has dealt with.

-- First published (null while it never was), and the last edit made after that.
ALTER TABLE reviews ADD COLUMN published_at TEXT;
ALTER TABLE reviews ADD COLUMN edited_at TEXT;
-- The console's "reported" queue: reviews with open reports.
CREATE INDEX reviews_reported ON reviews(report_count, created_at) WHERE report_count > 0;

-- The thumbnail's R2 key beside the display copy's (each named by its content's hash); null when
-- the form sent none (a browser without JavaScript), and the display copy is its own thumbnail.
ALTER TABLE review_photos ADD COLUMN thumb_key TEXT;
-- Whether any review still uses an object, before it is deleted from R2.
CREATE INDEX review_photos_key ON review_photos(key);
CREATE INDEX review_photos_thumb ON review_photos(thumb_key) WHERE thumb_key IS NOT NULL;

-- products.rating_count and rating_sum (0050) follow every published review through these
-- triggers, in the statement that changes the review: publishing, unpublishing (rejected, back to
-- pending on an edit), a new rating, and a deletion by any path (a cascade included). So the
-- stars on a card are exact whatever code changes a review, as the facet counts are (0018).
CREATE TRIGGER reviews_rating_insert AFTER INSERT ON reviews WHEN NEW.status = 'published'
BEGIN
  UPDATE products SET rating_count = rating_count + 1, rating_sum = rating_sum + NEW.rating WHERE id = NEW.product_id;
END;

CREATE TRIGGER reviews_rating_delete AFTER DELETE ON reviews WHEN OLD.status = 'published'
BEGIN
  UPDATE products SET rating_count = rating_count - 1, rating_sum = rating_sum - OLD.rating WHERE id = OLD.product_id;
END;

CREATE TRIGGER reviews_rating_update AFTER UPDATE OF status, rating, product_id ON reviews
WHEN OLD.status = 'published' OR NEW.status = 'published'
BEGIN
  UPDATE products SET rating_count = rating_count - 1, rating_sum = rating_sum - OLD.rating
  WHERE id = OLD.product_id AND OLD.status = 'published';
  UPDATE products SET rating_count = rating_count + 1, rating_sum = rating_sum + NEW.rating
  WHERE id = NEW.product_id AND NEW.status = 'published';
END;

-- Reviews published before these triggers (none are, unless written by hand) count too.
UPDATE products SET
  rating_count = (SELECT COUNT(*) FROM reviews r WHERE r.product_id = products.id AND r.status = 'published'),
  rating_sum = (SELECT IFNULL(SUM(r.rating), 0) FROM reviews r WHERE r.product_id = products.id AND r.status = 'published')
WHERE id IN (SELECT product_id FROM reviews);

-- The delivered orders the invitation cron has dealt with (services/reviews/invitations.ts), once
-- each: `invited` (messages written to the shopper outbox) or `reviewed` (the buyer had already
-- reviewed every product of it: nothing sent). `delivered_at` is the order's, so the cron resumes
-- its scan from the newest it dealt with rather than reading every delivered order each minute.
CREATE TABLE review_invitations (
  order_id INTEGER PRIMARY KEY REFERENCES orders(id) ON DELETE CASCADE,
  outcome TEXT NOT NULL CHECK (outcome IN ('invited', 'reviewed')),
  delivered_at TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX review_invitations_delivered ON review_invitations(delivered_at);

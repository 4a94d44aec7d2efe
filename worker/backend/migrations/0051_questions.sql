-- Questions shoppers ask on a product's page, and their answers: from staff (published at once,
-- staff being the moderators) or, when the store allows it, from buyers of a delivered order of
-- the product (pending until moderated). Everything a shopper writes is pending until staff
-- approve it; a rejected or removed one keeps its row and the reason, so a decision can be undone.
CREATE TABLE questions (
  id INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  -- the asking account; null once the account is deleted (the question stays, nobody is told)
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  text TEXT NOT NULL,
  -- the language the text is written in (Arabic letters: ar), for its direction on the page
  lang TEXT NOT NULL CHECK (lang IN ('en', 'ar')),
  -- the language the asker used the shop in when asking: the answer's message is written in it
  asker_lang TEXT NOT NULL CHECK (asker_lang IN ('en', 'ar')),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published', 'rejected')),
  -- why staff rejected or removed it, in their words
  reject_reason TEXT,
  -- what the screening found for the moderator (links, emails, phone numbers), JSON array; null when clean
  flags TEXT,
  moderated_at TEXT,
  moderated_by TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
-- A product's published questions, newest first, and the console's queue per status.
CREATE INDEX questions_product_status ON questions(product_id, status, created_at);
CREATE INDEX questions_queue ON questions(status, created_at);
CREATE INDEX questions_user ON questions(user_id, status);

CREATE TABLE answers (
  id INTEGER PRIMARY KEY,
  question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
  -- a buyer's account (null for staff, or once the account is deleted)
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  -- the staff member who wrote it (null for a buyer)
  staff_email TEXT,
  by_staff INTEGER NOT NULL DEFAULT 0 CHECK (by_staff IN (0, 1)),
  -- a delivered order of the author's held the product when they answered
  verified_buyer INTEGER NOT NULL DEFAULT 0 CHECK (verified_buyer IN (0, 1)),
  text TEXT NOT NULL,
  lang TEXT NOT NULL CHECK (lang IN ('en', 'ar')),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published', 'rejected')),
  reject_reason TEXT,
  flags TEXT,
  moderated_at TEXT,
  moderated_by TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CHECK (by_staff = 0 OR staff_email IS NOT NULL),
  -- a buyer answers a question once (staff rows have no user, so they never clash)
  UNIQUE (question_id, user_id)
);
-- A question's answers per status, and the console's queue of answers.
CREATE INDEX answers_question_status ON answers(question_id, status, created_at);
CREATE INDEX answers_queue ON answers(status, created_at);
CREATE INDEX answers_user ON answers(user_id, status);

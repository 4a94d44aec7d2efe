-- Typed specifications: an attribute is defined once (storage, RAM, screen size...) with a type,
-- bilingual labels and, for numbers, a bilingual unit; a category lists the attributes its
-- products carry, in the order its specification table shows them; a product holds one value per
-- attribute. The free-form `specs_*` rows stay: a shop fills typed values as it goes, and a typed
-- value supersedes the free-form row of the same label on the product page.
CREATE TABLE attributes (
  id INTEGER PRIMARY KEY,
  -- Stable name for URLs, CSV columns and search (e.g. "storage_gb").
  code TEXT NOT NULL UNIQUE CHECK (code GLOB '[a-z]*' AND code NOT GLOB '*[^a-z0-9_]*' AND length(code) <= 40),
  type TEXT NOT NULL CHECK (type IN ('number', 'enum', 'bool', 'text')),
  label_en TEXT NOT NULL,
  label_ar TEXT NOT NULL,
  -- Only numbers carry a unit ("GB" / "جيجابايت").
  unit_en TEXT,
  unit_ar TEXT,
  -- The heading the row sits under in the specification table ("Display" / "الشاشة").
  group_en TEXT NOT NULL DEFAULT '',
  group_ar TEXT NOT NULL DEFAULT '',
  position INTEGER NOT NULL DEFAULT 0,
  CHECK ((unit_en IS NULL) = (unit_ar IS NULL)),
  CHECK (type = 'number' OR unit_en IS NULL)
);

-- The choices of an enumeration, in the order filters and pickers list them.
CREATE TABLE attribute_options (
  id INTEGER PRIMARY KEY,
  attribute_id INTEGER NOT NULL REFERENCES attributes(id) ON DELETE CASCADE,
  code TEXT NOT NULL,
  label_en TEXT NOT NULL,
  label_ar TEXT NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  UNIQUE (attribute_id, code)
);

-- Which attributes a category's products carry (a subcategory inherits its parent's).
CREATE TABLE category_attributes (
  category_id INTEGER NOT NULL REFERENCES categories(id) ON DELETE CASCADE,
  attribute_id INTEGER NOT NULL REFERENCES attributes(id) ON DELETE CASCADE,
  position INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (category_id, attribute_id)
);

-- One value per product and attribute, in the column of the attribute's type; exactly one is set.
CREATE TABLE product_attribute_values (
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  attribute_id INTEGER NOT NULL REFERENCES attributes(id) ON DELETE CASCADE,
  number_value REAL,
  option_id INTEGER REFERENCES attribute_options(id) ON DELETE CASCADE,
  bool_value INTEGER CHECK (bool_value IS NULL OR bool_value IN (0, 1)),
  text_en TEXT,
  text_ar TEXT,
  PRIMARY KEY (product_id, attribute_id),
  CHECK ((number_value IS NOT NULL) + (option_id IS NOT NULL) + (bool_value IS NOT NULL) + (text_en IS NOT NULL) = 1),
  CHECK ((text_en IS NULL) = (text_ar IS NULL))
) WITHOUT ROWID;
-- Filters read an attribute's values across products: by option, or in number order.
CREATE INDEX product_attribute_values_option ON product_attribute_values(attribute_id, option_id);
CREATE INDEX product_attribute_values_number ON product_attribute_values(attribute_id, number_value);

-- A value is of its attribute's type, and an option is one of its attribute's own.
CREATE TRIGGER product_attribute_values_typed_insert BEFORE INSERT ON product_attribute_values
WHEN (SELECT type FROM attributes WHERE id = NEW.attribute_id) IS NOT CASE
    WHEN NEW.number_value IS NOT NULL THEN 'number'
    WHEN NEW.option_id IS NOT NULL THEN 'enum'
    WHEN NEW.bool_value IS NOT NULL THEN 'bool'
    ELSE 'text' END
  OR (NEW.option_id IS NOT NULL AND (SELECT attribute_id FROM attribute_options WHERE id = NEW.option_id) IS NOT NEW.attribute_id)
BEGIN
  SELECT RAISE(ABORT, 'attribute value does not match its attribute');
END;
CREATE TRIGGER product_attribute_values_typed_update BEFORE UPDATE ON product_attribute_values
WHEN (SELECT type FROM attributes WHERE id = NEW.attribute_id) IS NOT CASE
    WHEN NEW.number_value IS NOT NULL THEN 'number'
    WHEN NEW.option_id IS NOT NULL THEN 'enum'
    WHEN NEW.bool_value IS NOT NULL THEN 'bool'
    ELSE 'text' END
  OR (NEW.option_id IS NOT NULL AND (SELECT attribute_id FROM attribute_options WHERE id = NEW.option_id) IS NOT NEW.attribute_id)
BEGIN
  SELECT RAISE(ABORT, 'attribute value does not match its attribute');
END;

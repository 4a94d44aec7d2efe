-- The Saudi national address on saved addresses: the additional number (4 digits) and the short
-- address (4 letters and the building number). Both optional, so every address saved before stays
-- as it was; an order keeps its address as JSON and needs no column.
ALTER TABLE addresses ADD COLUMN additional_number TEXT;
ALTER TABLE addresses ADD COLUMN short_address TEXT;

-- Search synonyms and transliterations: words a shopper may type for the same thing, in
-- either language. Data, not code: an operator edits these rows (the console) and the
-- next searches use them. Each row puts one term, as typed (one or more words), into a group;
-- every term of a group finds what any other term of it finds. Terms are analysed (folded and
-- stemmed) when read, exactly as the products' text was when it was indexed.
-- The index was built with folding only; it is rebuilt with stems (services/analysis.ts) by the
-- seed script, which fills an empty index (scripts/seed.ts).
DELETE FROM product_search;

CREATE TABLE search_synonyms (
  group_name TEXT NOT NULL,
  term TEXT NOT NULL,
  PRIMARY KEY (group_name, term)
);

INSERT INTO search_synonyms (group_name, term) VALUES
  ('phone', 'هاتف'), ('phone', 'هواتف'), ('phone', 'جوال'), ('phone', 'جوالات'), ('phone', 'موبايل'),
  ('phone', 'هاتف ذكي'), ('phone', 'phone'), ('phone', 'mobile'), ('phone', 'smartphone'), ('phone', 'cellphone'),
  ('laptop', 'لابتوب'), ('laptop', 'حاسوب محمول'), ('laptop', 'حاسوب'), ('laptop', 'حواسيب'), ('laptop', 'كمبيوتر محمول'),
  ('laptop', 'laptop'), ('laptop', 'notebook'), ('laptop', 'macbook'), ('laptop', 'ماك بوك'),
  ('tv', 'تلفزيون'), ('tv', 'تلفاز'), ('tv', 'شاشة'), ('tv', 'tv'), ('tv', 'tvs'), ('tv', 'television'),
  ('gaming', 'ألعاب'), ('gaming', 'لعب'), ('gaming', 'games'), ('gaming', 'gaming'), ('gaming', 'console'),
  ('gaming', 'بلايستيشن'), ('gaming', 'playstation'),
  ('headphones', 'سماعة'), ('headphones', 'سماعات'), ('headphones', 'headphones'), ('headphones', 'earbuds'),
  ('headphones', 'earphones'), ('headphones', 'headset'),
  ('tablet', 'تابلت'), ('tablet', 'جهاز لوحي'), ('tablet', 'tablet'), ('tablet', 'ipad'), ('tablet', 'آيباد'),
  ('watch', 'ساعة'), ('watch', 'ساعة ذكية'), ('watch', 'watch'), ('watch', 'smartwatch'),
  ('camera', 'كاميرا'), ('camera', 'كاميرات'), ('camera', 'camera'),
  ('charger', 'شاحن'), ('charger', 'شواحن'), ('charger', 'charger'), ('charger', 'power bank'), ('charger', 'باور بانك'),
  ('speaker', 'مكبر صوت'), ('speaker', 'سماعة خارجية'), ('speaker', 'speaker'),
  ('case', 'جراب'), ('case', 'غطاء'), ('case', 'كفر'), ('case', 'case'), ('case', 'cover'),
  ('samsung', 'سامسونج'), ('samsung', 'سامسونغ'), ('samsung', 'samsung'),
  ('iphone', 'آيفون'), ('iphone', 'ايفون'), ('iphone', 'iphone'),
  ('apple', 'أبل'), ('apple', 'ابل'), ('apple', 'آبل'), ('apple', 'apple'),
  ('galaxy', 'جالاكسي'), ('galaxy', 'جلاكسي'), ('galaxy', 'غالاكسي'), ('galaxy', 'galaxy'),
  ('huawei', 'هواوي'), ('huawei', 'huawei'),
  ('xiaomi', 'شاومي'), ('xiaomi', 'شاومى'), ('xiaomi', 'xiaomi'),
  ('sony', 'سوني'), ('sony', 'sony'),
  ('lenovo', 'لينوفو'), ('lenovo', 'lenovo'),
  ('google', 'جوجل'), ('google', 'قوقل'), ('google', 'google'),
  ('lg', 'إل جي'), ('lg', 'ال جي'), ('lg', 'lg');

-- The index's vocabulary (one row per term, with how many products hold it): where a misspelt
-- word finds the nearest real one (services/spelling.ts).
CREATE VIRTUAL TABLE product_search_vocab USING fts5vocab(product_search, 'row');

-- Descriptions are searched too, in their own index: what is typed, found only in a description,
-- comes after every name, brand or category match (services/catalogue.ts). Their own table, so
-- the many descriptions that mention other products ("works with your iPhone") do not lower the
-- weight of a name's words in product_search.
CREATE VIRTUAL TABLE product_details_search USING fts5(
  details,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);

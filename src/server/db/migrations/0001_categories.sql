-- The five brands of spec section 9 are reference data: products are validated against them,
-- so they exist in every database, with or without demo data.
INSERT INTO "categories" ("category_id", "name") VALUES
  ('01', 'Apple'),
  ('02', 'Samsung'),
  ('03', 'Infinix'),
  ('04', 'Oppo'),
  ('05', 'Xiaomi')
ON CONFLICT ("category_id") DO NOTHING;

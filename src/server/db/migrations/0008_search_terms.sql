CREATE TABLE "search_terms" (
	"term" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_terms_term_trgm_idx" ON "search_terms" USING gin ("term" gin_trgm_ops);--> statement-breakpoint
-- Close matches no longer read every phone's text (decision 025).
DROP INDEX "products_search_text_trgm_idx";--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "search_text";--> statement-breakpoint
-- Each statement that lists or renames phones adds their new words (a statement's rows at once:
-- a bulk insert of many phones costs one insert of their distinct words).
CREATE FUNCTION search_terms_collect() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_terms (term)
    SELECT DISTINCT unnest(tsvector_to_array(search_vector)) FROM changed_products
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER products_search_terms_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS changed_products
  FOR EACH STATEMENT EXECUTE FUNCTION search_terms_collect();--> statement-breakpoint
CREATE TRIGGER products_search_terms_update AFTER UPDATE ON products
  REFERENCING NEW TABLE AS changed_products
  FOR EACH STATEMENT EXECUTE FUNCTION search_terms_collect();--> statement-breakpoint
INSERT INTO search_terms (term)
  SELECT DISTINCT unnest(tsvector_to_array(search_vector)) FROM products
  ON CONFLICT DO NOTHING;

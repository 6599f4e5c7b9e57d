-- Issue 18. The search's indexes need pg_trgm (trigrams) and btree_gin (plain columns in a GIN
-- index); PGlite loads both as extensions too (db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
-- Every phone so far has one photo, its cover.
ALTER TABLE "products" ADD COLUMN "photos" text[];--> statement-breakpoint
UPDATE "products" SET "photos" = ARRAY["image"];--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "photos" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (to_tsvector('simple', model_name || ' ' || description)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(model_name || ' ' || description)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "products_search_idx" ON "products" USING gin ("search_vector","status","category_id","storage","ram","condition");--> statement-breakpoint
CREATE INDEX "products_search_text_trgm_idx" ON "products" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_location_trgm_idx" ON "products" USING gin ("location" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_seq_idx" ON "products" USING btree ("seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "products_price_seq_idx" ON "products" USING btree ("resell_price_cents","seq");--> statement-breakpoint
CREATE INDEX "products_available_seq_idx" ON "products" USING btree ("seq" DESC NULLS LAST) WHERE "products"."status" = 'available';--> statement-breakpoint
CREATE INDEX "products_available_price_seq_idx" ON "products" USING btree ("resell_price_cents","seq") WHERE "products"."status" = 'available';--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_photos_check" CHECK (cardinality("products"."photos") between 1 and 6 and "products"."photos"[1] = "products"."image");
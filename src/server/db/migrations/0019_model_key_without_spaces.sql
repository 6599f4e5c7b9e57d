-- The price guide compares models with their spaces left out, not only collapsed: a seller who
-- types "iPhone14" lists the same phone as one who types "iPhone 14" (decision 035).
ALTER TABLE "orders" DROP COLUMN "model_key";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "model_key" text GENERATED ALWAYS AS (lower(regexp_replace(product_name, '[[:space:]]+', '', 'g'))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_comparable_idx" ON "orders" USING btree ("model_key","storage","completed_at") WHERE "orders"."stage" = 'completed';--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "model_key";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "model_key" text GENERATED ALWAYS AS (lower(regexp_replace(model_name, '[[:space:]]+', '', 'g'))) STORED NOT NULL;

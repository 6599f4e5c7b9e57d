DROP INDEX "products_model_storage_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "model_key" text GENERATED ALWAYS AS (lower(regexp_replace(btrim(product_name), '[[:space:]]+', ' ', 'g'))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "storage" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "condition" text;--> statement-breakpoint
CREATE INDEX "orders_comparable_idx" ON "orders" USING btree ("model_key","storage","completed_at") WHERE "orders"."stage" = 'completed';--> statement-breakpoint
-- Sales made before these columns: the storage and condition of their phone, where it still exists.
UPDATE "orders" SET "storage" = "products"."storage", "condition" = "products"."condition"
  FROM "products" WHERE "products"."id" = "orders"."product_id";

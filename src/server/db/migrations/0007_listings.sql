CREATE TABLE "blocked_imeis" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "blocked_imeis_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"imei_hash" text NOT NULL,
	"imei_last4" text NOT NULL,
	"reason" text NOT NULL,
	"blocked_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blocked_imeis_hash_key" UNIQUE("imei_hash")
);
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_status_check";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "battery_health" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "imei_hash" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "imei_last4" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "imei_sealed" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "previous_price_cents" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "model_key" text GENERATED ALWAYS AS (lower(regexp_replace(btrim(model_name), '[[:space:]]+', ' ', 'g'))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "blocked_imeis_seq_idx" ON "blocked_imeis" USING btree ("seq" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "products_imei_live_key" ON "products" USING btree ("imei_hash") WHERE "products"."status" = 'available' and "products"."imei_hash" is not null;--> statement-breakpoint
CREATE INDEX "products_imei_idx" ON "products" USING btree ("imei_hash");--> statement-breakpoint
CREATE INDEX "products_model_storage_idx" ON "products" USING btree ("model_key","storage");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_battery_health_check" CHECK ("products"."battery_health" is null or "products"."battery_health" between 50 and 100);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_status_check" CHECK ("products"."status" in ('available', 'sold', 'withdrawn'));
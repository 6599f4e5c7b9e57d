CREATE TABLE "price_history" (
	"product_id" uuid NOT NULL,
	"price_cents" integer NOT NULL,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "price_history" ADD CONSTRAINT "price_history_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_history_product_idx" ON "price_history" USING btree ("product_id","set_at" DESC NULLS LAST);--> statement-breakpoint
-- The price each phone has now, from when it was last changed (or listed).
INSERT INTO "price_history" ("product_id", "price_cents", "set_at")
  SELECT "id", "resell_price_cents", coalesce("updated_at", "created_at") FROM "products";

CREATE TABLE "bulk_upload_rows" (
	"upload_id" uuid NOT NULL,
	"row" integer NOT NULL,
	"model" text NOT NULL,
	"problems" jsonb NOT NULL,
	"input" jsonb,
	"sealed_imei" text,
	"listed" boolean,
	"outcome_message" text,
	"product_id" uuid,
	CONSTRAINT "bulk_upload_rows_upload_id_row_pk" PRIMARY KEY("upload_id","row")
);
--> statement-breakpoint
CREATE TABLE "bulk_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seller_id" uuid NOT NULL,
	"status" text NOT NULL,
	"message" text,
	"rows_total" integer NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"photos_total" integer DEFAULT 0 NOT NULL,
	"photos_done" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bulk_upload_rows" ADD CONSTRAINT "bulk_upload_rows_upload_id_bulk_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."bulk_uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_upload_rows" ADD CONSTRAINT "bulk_upload_rows_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_uploads" ADD CONSTRAINT "bulk_uploads_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_uploads_seller_created" ON "bulk_uploads" USING btree ("seller_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bulk_uploads_due" ON "bulk_uploads" USING btree ("lease_until") WHERE "bulk_uploads"."status" in ('photos', 'listing');
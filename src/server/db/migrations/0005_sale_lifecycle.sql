CREATE TABLE "disputes" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "disputes_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"reason" text NOT NULL,
	"resolution" text,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disputes_resolution_check" CHECK ("disputes"."resolution" in ('refunded', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"by" text NOT NULL,
	"ratee_id" uuid NOT NULL,
	"stars" integer NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ratings_by_check" CHECK ("ratings"."by" in ('buyer', 'seller')),
	CONSTRAINT "ratings_stars_check" CHECK ("ratings"."stars" between 1 and 5)
);
--> statement-breakpoint
DROP INDEX "orders_buyer_product_key";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "stage" text DEFAULT 'booked' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "seller_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "seller_email" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "seller_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "seller_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "handover_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "handover_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "handover_locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "hold_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "money" text DEFAULT 'held' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "settled_at" timestamp with time zone;--> statement-breakpoint
-- Before this, a payment was captured at once: those sales are complete and their money is the seller's.
UPDATE "payments" SET "money" = 'captured', "settled_at" = "created_at";--> statement-breakpoint
UPDATE "orders" SET "stage" = 'completed', "paid_at" = "payments"."created_at", "completed_at" = "payments"."created_at" FROM "payments" WHERE "payments"."order_id" = "orders"."id";--> statement-breakpoint
UPDATE "orders" SET "stage" = 'completed', "paid_at" = "created_at", "completed_at" = "created_at" WHERE "status" = 'paid' AND "stage" = 'booked';--> statement-breakpoint
-- The seller as the phone names them, where the phone and its seller's account still exist.
UPDATE "orders" SET "seller_id" = "users"."id", "seller_email" = "users"."email", "seller_name" = "products"."seller_name", "seller_number" = "products"."seller_number" FROM "products" JOIN "users" ON "users"."email" = "products"."seller_email" WHERE "products"."id" = "orders"."product_id";--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_ratee_id_users_id_fk" FOREIGN KEY ("ratee_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "disputes_seq_idx" ON "disputes" USING btree ("seq" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "ratings_order_by_key" ON "ratings" USING btree ("order_id","by");--> statement-breakpoint
CREATE INDEX "ratings_ratee_idx" ON "ratings" USING btree ("ratee_id","by");--> statement-breakpoint
CREATE INDEX "orders_seller_seq_idx" ON "orders" USING btree ("seller_id","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_hold_idx" ON "orders" USING btree ("hold_expires_at") WHERE "orders"."stage" = 'paid';--> statement-breakpoint
CREATE INDEX "payments_unsettled_idx" ON "payments" USING btree ("seq") WHERE "payments"."money" in ('capturing', 'releasing', 'refunding');--> statement-breakpoint
CREATE UNIQUE INDEX "orders_buyer_product_key" ON "orders" USING btree ("buyer_id","product_id") WHERE "orders"."stage" in ('booked', 'paid');--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_stage_check" CHECK (("orders"."status" = 'unpaid') = ("orders"."stage" = 'booked'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_stage_check" CHECK ("orders"."stage" in ('booked', 'paid', 'completed', 'cancelled', 'expired', 'disputed', 'refunded'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_money_check" CHECK ("payments"."money" in ('held', 'capturing', 'captured', 'releasing', 'released', 'refunding', 'refunded'));
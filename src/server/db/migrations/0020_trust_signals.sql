-- Trust signals one person cannot buy (issue 29, decision 038). The client addresses each account
-- acted from and the card each payment was made with, as keyed fingerprints (never the address or
-- the number); whether a completed sale was between unrelated accounts, decided at its handover;
-- and which ratings count: one per rater and rated account, none between related accounts.
CREATE TABLE "account_addresses" (
	"user_id" uuid NOT NULL,
	"address_hash" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_addresses_pkey" PRIMARY KEY("user_id","address_hash")
);
--> statement-breakpoint
ALTER TABLE "account_addresses" ADD CONSTRAINT "account_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_addresses_hash_idx" ON "account_addresses" USING btree ("address_hash");--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "card_fingerprint" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "card_fingerprint" text;--> statement-breakpoint
CREATE INDEX "payments_card_fingerprint_idx" ON "payments" USING btree ("card_fingerprint") WHERE "payments"."card_fingerprint" is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "arms_length" boolean;--> statement-breakpoint
-- Sales handed over before: nothing was recorded to tell, so they count as they did.
UPDATE "orders" SET "arms_length" = true WHERE "completed_at" IS NOT NULL;--> statement-breakpoint
DROP INDEX "orders_comparable_idx";--> statement-breakpoint
CREATE INDEX "orders_comparable_idx" ON "orders" USING btree ("model_key","storage","completed_at") WHERE "orders"."stage" = 'completed' and "orders"."arms_length";--> statement-breakpoint
ALTER TABLE "ratings" ADD COLUMN "rater_id" uuid;--> statement-breakpoint
ALTER TABLE "ratings" ADD COLUMN "counts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "ratings" SET "rater_id" = CASE "ratings"."by" WHEN 'buyer' THEN o."buyer_id" ELSE o."seller_id" END FROM "orders" o WHERE o."id" = "ratings"."order_id";--> statement-breakpoint
-- The latest rating of each rater and rated account counts.
UPDATE "ratings" SET "counts" = true WHERE "id" IN (SELECT DISTINCT ON (coalesce("rater_id", "id"), "ratee_id", "by") "id" FROM "ratings" ORDER BY coalesce("rater_id", "id"), "ratee_id", "by", "created_at" DESC, "id");--> statement-breakpoint
CREATE UNIQUE INDEX "ratings_pair_counted_key" ON "ratings" USING btree ("rater_id","ratee_id","by") WHERE "ratings"."counts";--> statement-breakpoint
CREATE INDEX "ratings_counted_idx" ON "ratings" USING btree ("ratee_id","by","stars") WHERE "ratings"."counts";

CREATE TABLE "banned_emails" (
	"email" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "banned_emails_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "banned_emails_reason_check" CHECK ("banned_emails"."reason" in ('deleted', 'banned'))
);
--> statement-breakpoint
DROP INDEX "orders_email_product_key";--> statement-breakpoint
DROP INDEX "orders_email_seq_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_id" uuid;--> statement-breakpoint
-- Orders of accounts that still exist belong to them; orders of deleted accounts to nobody.
UPDATE "orders" SET "buyer_id" = "users"."id" FROM "users" WHERE "users"."email" = "orders"."email";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_admin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "banned_emails_seq_idx" ON "banned_emails" USING btree ("seq" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "orders_buyer_product_key" ON "orders" USING btree ("buyer_id","product_id");--> statement-breakpoint
CREATE INDEX "orders_buyer_seq_idx" ON "orders" USING btree ("buyer_id","seq" DESC NULLS LAST);
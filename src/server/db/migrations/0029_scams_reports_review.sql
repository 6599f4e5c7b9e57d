CREATE TABLE "banned_marks" (
	"kind" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "banned_marks_pkey" PRIMARY KEY("kind","hash")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "reports_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"reporter_id" uuid NOT NULL,
	"product_id" uuid,
	"seller_id" uuid,
	"subject_name" text NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_actions" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "review_actions_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"admin_id" uuid,
	"admin_name" text NOT NULL,
	"target" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"action" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_signals" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "risk_signals_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subject_kind" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"rule" text NOT NULL,
	"weight" integer NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cleared_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_status_check";--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "off_platform" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_actions" ADD CONSTRAINT "review_actions_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reports_listing_once_idx" ON "reports" USING btree ("reporter_id","product_id") WHERE "reports"."kind" = 'listing';--> statement-breakpoint
CREATE UNIQUE INDEX "reports_seller_once_idx" ON "reports" USING btree ("reporter_id","seller_id") WHERE "reports"."kind" = 'seller';--> statement-breakpoint
CREATE INDEX "reports_product_idx" ON "reports" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "reports_seller_idx" ON "reports" USING btree ("seller_id");--> statement-breakpoint
CREATE INDEX "reports_reporter_idx" ON "reports" USING btree ("reporter_id","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reports_open_idx" ON "reports" USING btree ("seq") WHERE "reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "review_actions_seq_idx" ON "review_actions" USING btree ("seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "review_actions_subject_idx" ON "review_actions" USING btree ("subject_id");--> statement-breakpoint
CREATE UNIQUE INDEX "risk_signals_subject_rule_idx" ON "risk_signals" USING btree ("subject_kind","subject_id","rule");--> statement-breakpoint
CREATE INDEX "risk_signals_subject_idx" ON "risk_signals" USING btree ("subject_id");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_status_check" CHECK ("products"."status" in ('available', 'sold', 'withdrawn', 'held'));
CREATE TABLE "listing_alert_queue" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "listing_alert_queue_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"product_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_search_alerts" (
	"user_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"search_ids" uuid[] NOT NULL,
	"price_cents" integer NOT NULL,
	"alerted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"drop_alerted_at" timestamp with time zone,
	"daily" boolean NOT NULL,
	"digested_at" timestamp with time zone,
	CONSTRAINT "saved_search_alerts_user_id_product_id_pk" PRIMARY KEY("user_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "saved_search_changes" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "saved_search_changes_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"search_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_search_digests" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "saved_searches_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"search" text NOT NULL,
	"words" text[] NOT NULL,
	"location_lower" text,
	"frequency" text NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_searches_frequency_check" CHECK ("saved_searches"."frequency" in ('instant', 'daily'))
);
--> statement-breakpoint
ALTER TABLE "saved_search_alerts" ADD CONSTRAINT "saved_search_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_alerts" ADD CONSTRAINT "saved_search_alerts_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_digests" ADD CONSTRAINT "saved_search_digests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_search_alerts_digest_idx" ON "saved_search_alerts" USING btree ("user_id","alerted_at") WHERE "saved_search_alerts"."daily" and "saved_search_alerts"."digested_at" is null;--> statement-breakpoint
CREATE INDEX "saved_search_alerts_product_idx" ON "saved_search_alerts" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "saved_searches_user_seq_idx" ON "saved_searches" USING btree ("user_id","seq" DESC NULLS LAST);--> statement-breakpoint
-- Saved searches (issue 33, decision 049). Every change of one is logged for the servers' reverse
-- matchers, under the shared side of an advisory lock whose exclusive side a matcher takes to
-- read the log: by then every change logged is committed, so reading on from the last one read
-- misses none (a sequence alone would let a later number commit before an earlier one).
CREATE FUNCTION saved_search_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(33033);
  INSERT INTO saved_search_changes (search_id)
    VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER saved_searches_changed AFTER INSERT OR UPDATE OR DELETE ON "saved_searches"
  FOR EACH ROW EXECUTE FUNCTION saved_search_changed();--> statement-breakpoint

-- A phone listed, back on sale (relisted, or its sale cancelled or expired) or cheaper while for
-- sale: matched against the saved searches by the alert work, in the transaction of the change,
-- whichever path made it. Nothing is queued while nobody has a search saved (a catalog loaded in
-- bulk costs no queue).
CREATE FUNCTION listing_alert_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status <> 'available' OR NOT EXISTS (SELECT 1 FROM saved_searches WHERE NOT paused) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO listing_alert_queue (product_id, reason) VALUES (NEW.id, 'listed');
  ELSIF OLD.status <> 'available' THEN
    INSERT INTO listing_alert_queue (product_id, reason) VALUES (NEW.id, 'relisted');
  ELSIF NEW.resell_price_cents < OLD.resell_price_cents THEN
    INSERT INTO listing_alert_queue (product_id, reason) VALUES (NEW.id, 'price-drop');
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER products_listing_alerts AFTER INSERT OR UPDATE OF status, resell_price_cents
  ON "products" FOR EACH ROW EXECUTE FUNCTION listing_alert_enqueue();

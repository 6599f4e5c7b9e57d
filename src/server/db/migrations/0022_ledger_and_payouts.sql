CREATE TABLE "ledger_entries" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"transaction_key" text NOT NULL,
	"account" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"order_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_amount_check" CHECK ("ledger_entries"."amount_cents" <> 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"key" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "ledger_transactions_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"order_id" uuid,
	"payout_id" uuid,
	"seller_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_accounts" (
	"seller_id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"external_id" text NOT NULL,
	"label" text NOT NULL,
	"status" text NOT NULL,
	"payouts_held_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_sales" (
	"payout_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"net_cents" integer NOT NULL,
	"transfer_id" text,
	CONSTRAINT "payout_sales_payout_id_order_id_pk" PRIMARY KEY("payout_id","order_id")
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "payouts_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"seller_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text DEFAULT 'sending' NOT NULL,
	"destination" text NOT NULL,
	"provider_ref" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "payouts_amount_check" CHECK ("payouts"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "test_bank_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"routing_number" text NOT NULL,
	"last4" text NOT NULL,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fee_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "funds_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_key_ledger_transactions_key_fk" FOREIGN KEY ("transaction_key") REFERENCES "public"."ledger_transactions"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_sales" ADD CONSTRAINT "payout_sales_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account","seq");--> statement-breakpoint
CREATE INDEX "ledger_entries_order_idx" ON "ledger_entries" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_idx" ON "ledger_entries" USING btree ("transaction_key");--> statement-breakpoint
CREATE INDEX "ledger_transactions_order_idx" ON "ledger_transactions" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_payout_idx" ON "ledger_transactions" USING btree ("payout_id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_kind_day_idx" ON "ledger_transactions" USING btree ("kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_accounts_external_key" ON "payout_accounts" USING btree ("external_id");--> statement-breakpoint
CREATE INDEX "payout_sales_order_idx" ON "payout_sales" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payouts_seller_seq_idx" ON "payouts" USING btree ("seller_id","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payouts_sending_idx" ON "payouts" USING btree ("seq") WHERE "payouts"."status" = 'sending';--> statement-breakpoint
CREATE INDEX "orders_funds_due_idx" ON "orders" USING btree ("funds_due_at") WHERE "orders"."funds_due_at" is not null;--> statement-breakpoint
-- The ledger is append-only: a correction is a new transaction, never an edit (decision 041).
CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME;
END;
$$;--> statement-breakpoint
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON "ledger_transactions"
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();--> statement-breakpoint
-- Every transaction sums to zero when its database transaction commits.
CREATE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE total bigint;
BEGIN
  SELECT sum(amount_cents) INTO total FROM ledger_entries WHERE transaction_key = NEW.transaction_key;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % does not balance (off by % cents)', NEW.transaction_key, total;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON "ledger_entries"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced();

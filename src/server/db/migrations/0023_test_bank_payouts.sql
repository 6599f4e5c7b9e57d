CREATE TABLE "test_bank_payouts" (
	"key" text PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"account_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

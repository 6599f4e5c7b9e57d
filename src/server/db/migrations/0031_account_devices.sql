-- The devices each account acted from (issue 34, decision 052's addendum): the keyed fingerprint of
-- a browser's device cookie, never the cookie, removed with the account as its addresses are.
CREATE TABLE "account_devices" (
	"user_id" uuid NOT NULL,
	"device_hash" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_devices_pkey" PRIMARY KEY("user_id","device_hash")
);
--> statement-breakpoint
ALTER TABLE "account_devices" ADD CONSTRAINT "account_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_devices_hash_idx" ON "account_devices" USING btree ("device_hash");
CREATE TABLE "photo_hashes" (
	"url" text PRIMARY KEY NOT NULL,
	"hash" bigint NOT NULL,
	"detail" bit(256) NOT NULL,
	"band0" integer GENERATED ALWAYS AS (((hash >> 42) & 4194303)::integer) STORED NOT NULL,
	"band1" integer GENERATED ALWAYS AS (((hash >> 21) & 2097151)::integer) STORED NOT NULL,
	"band2" integer GENERATED ALWAYS AS ((hash & 2097151)::integer) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "photo_hashes_band0_idx" ON "photo_hashes" USING btree ("band0");--> statement-breakpoint
CREATE INDEX "photo_hashes_band1_idx" ON "photo_hashes" USING btree ("band1");--> statement-breakpoint
CREATE INDEX "photo_hashes_band2_idx" ON "photo_hashes" USING btree ("band2");
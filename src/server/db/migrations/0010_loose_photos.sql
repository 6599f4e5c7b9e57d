CREATE TABLE "loose_photos" (
	"url" text PRIMARY KEY NOT NULL,
	"check_after" timestamp with time zone NOT NULL,
	"swept_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "loose_photos_due_idx" ON "loose_photos" USING btree ("check_after") WHERE "loose_photos"."swept_at" is null;--> statement-breakpoint
CREATE INDEX "loose_photos_swept_idx" ON "loose_photos" USING btree ("swept_at") WHERE "loose_photos"."swept_at" is not null;--> statement-breakpoint
CREATE INDEX "orders_image_idx" ON "orders" USING btree ("image");--> statement-breakpoint
CREATE INDEX "products_photos_idx" ON "products" USING gin ("photos");
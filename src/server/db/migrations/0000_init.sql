CREATE TABLE "advertisements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "advertisements_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"product_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"category_id" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "categories_category_id_unique" UNIQUE("category_id")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "orders_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"user_name" text NOT NULL,
	"product_id" uuid NOT NULL,
	"product_name" text NOT NULL,
	"image" text NOT NULL,
	"price_cents" integer NOT NULL,
	"location" text NOT NULL,
	"number" text NOT NULL,
	"status" text DEFAULT 'unpaid' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('unpaid', 'paid'))
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "payments_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"transaction_id" text NOT NULL,
	"email" text NOT NULL,
	"price_cents" integer NOT NULL,
	"order_id" uuid NOT NULL,
	"product_name" text NOT NULL,
	"product_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "products_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"category_id" text NOT NULL,
	"model_name" text NOT NULL,
	"image" text NOT NULL,
	"original_price_cents" integer NOT NULL,
	"resell_price_cents" integer NOT NULL,
	"location" text NOT NULL,
	"description" text NOT NULL,
	"time_used" integer NOT NULL,
	"condition" text NOT NULL,
	"ram" text NOT NULL,
	"storage" text NOT NULL,
	"color" text NOT NULL,
	"battery" integer NOT NULL,
	"seller_name" text NOT NULL,
	"seller_number" text NOT NULL,
	"seller_email" text NOT NULL,
	"status" text DEFAULT 'available' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_status_check" CHECK ("products"."status" in ('available', 'sold')),
	CONSTRAINT "products_prices_check" CHECK ("products"."original_price_cents" > 0 and "products"."resell_price_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "users_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"email" text NOT NULL,
	"type" text NOT NULL,
	"user_status" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_key" UNIQUE("email"),
	CONSTRAINT "users_type_check" CHECK ("users"."type" in ('user', 'seller'))
);
--> statement-breakpoint
CREATE TABLE "wishlist_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "wishlist_items_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"product_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "advertisements" ADD CONSTRAINT "advertisements_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_category_id_categories_category_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("category_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_seller_email_users_email_fk" FOREIGN KEY ("seller_email") REFERENCES "public"."users"("email") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD CONSTRAINT "wishlist_items_email_users_email_fk" FOREIGN KEY ("email") REFERENCES "public"."users"("email") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD CONSTRAINT "wishlist_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "advertisements_product_key" ON "advertisements" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "advertisements_seq_idx" ON "advertisements" USING btree ("seq" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "orders_email_product_key" ON "orders" USING btree ("email","product_id");--> statement-breakpoint
CREATE INDEX "orders_email_seq_idx" ON "orders" USING btree ("email","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_product_idx" ON "orders" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_transaction_key" ON "payments" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_order_key" ON "payments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "products_category_seq_idx" ON "products" USING btree ("category_id","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "products_seller_seq_idx" ON "products" USING btree ("seller_email","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "users_type_seq_idx" ON "users" USING btree ("type","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "wishlist_items_email_product_key" ON "wishlist_items" USING btree ("email","product_id");--> statement-breakpoint
CREATE INDEX "wishlist_items_email_seq_idx" ON "wishlist_items" USING btree ("email","seq" DESC NULLS LAST);
CREATE TABLE "search_phones" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"category_id" text NOT NULL,
	"ram" text NOT NULL,
	"storage" text NOT NULL,
	"condition" text NOT NULL,
	"resell_price_cents" integer NOT NULL,
	"battery" integer NOT NULL,
	"battery_health" integer,
	"location" text NOT NULL,
	"seller_email" text NOT NULL,
	"words" text NOT NULL
);
--> statement-breakpoint
-- What the search's counts read of each phone for sale (decision 061): a phone for sale has its
-- row here, written in the same statement as the phone, and no other phone has one. A start reads
-- this table (the phones for sale, their words made once) instead of every phone ever listed;
-- at ten million phones, nine in ten sold, reading those from a cold cache took 88 s.
CREATE FUNCTION search_phones_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM search_phones s USING gone_products g WHERE s.seq = g.seq;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM search_phones s USING changed_products c
      WHERE s.seq = c.seq AND c.status <> 'available';
  END IF;
  INSERT INTO search_phones AS s (seq, category_id, ram, storage, condition, resell_price_cents,
      battery, battery_health, location, seller_email, words)
    SELECT seq, category_id, ram, storage, condition, resell_price_cents, battery,
      battery_health, location, seller_email,
      array_to_string(tsvector_to_array(search_vector), ' ')
    FROM changed_products WHERE status = 'available'
    ON CONFLICT (seq) DO UPDATE SET category_id = excluded.category_id, ram = excluded.ram,
      storage = excluded.storage, condition = excluded.condition,
      resell_price_cents = excluded.resell_price_cents, battery = excluded.battery,
      battery_health = excluded.battery_health, location = excluded.location,
      seller_email = excluded.seller_email, words = excluded.words
    -- A change the counts do not read (a photo, a view) writes nothing here.
    WHERE s IS DISTINCT FROM excluded;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER products_search_phones_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS changed_products
  FOR EACH STATEMENT EXECUTE FUNCTION search_phones_keep();--> statement-breakpoint
CREATE TRIGGER products_search_phones_update AFTER UPDATE ON products
  REFERENCING NEW TABLE AS changed_products
  FOR EACH STATEMENT EXECUTE FUNCTION search_phones_keep();--> statement-breakpoint
CREATE TRIGGER products_search_phones_delete AFTER DELETE ON products
  REFERENCING OLD TABLE AS gone_products
  FOR EACH STATEMENT EXECUTE FUNCTION search_phones_keep();--> statement-breakpoint
INSERT INTO search_phones (seq, category_id, ram, storage, condition, resell_price_cents,
    battery, battery_health, location, seller_email, words)
  SELECT seq, category_id, ram, storage, condition, resell_price_cents, battery, battery_health,
    location, seller_email, array_to_string(tsvector_to_array(search_vector), ' ')
  FROM products WHERE status = 'available';

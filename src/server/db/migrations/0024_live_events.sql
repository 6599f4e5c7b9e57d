-- Live events (issue 31, decision 043): what changed is told to the open pages of the people who
-- see it, by the database itself, in the transaction of the change. A write path added later
-- cannot forget to tell. Each event is `pg_notify('live', {"u": person, "s": subject, "id": id})`,
-- sent at commit (never for a rolled-back change) and once per transaction for the same payload.
CREATE FUNCTION live_tell(person uuid, subject text, about uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF person IS NOT NULL THEN
    PERFORM pg_notify('live', json_build_object('u', person, 's', subject, 'id', about)::text);
  END IF;
END $$;--> statement-breakpoint

-- A phone changed (price, photos, status, details) or went: its seller, the people who keep it on
-- their wish list, who booked it and who wrote about it. Not every visitor: a public page that is
-- not told asks again when it is shown and stale (the client's staleTime).
CREATE FUNCTION live_product_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  phone products%ROWTYPE;
BEGIN
  IF TG_OP = 'DELETE' THEN phone := OLD; ELSE phone := NEW; END IF;
  PERFORM live_tell(u.id, 'product', phone.id) FROM users u WHERE u.email = phone.seller_email;
  PERFORM live_tell(u.id, 'product', phone.id)
    FROM wishlist_items w JOIN users u ON u.email = w.email WHERE w.product_id = phone.id;
  PERFORM live_tell(o.buyer_id, 'product', phone.id) FROM orders o WHERE o.product_id = phone.id;
  PERFORM live_tell(c.buyer_id, 'product', phone.id)
    FROM conversations c WHERE c.product_id = phone.id;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER products_live AFTER UPDATE ON "products"
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION live_product_changed();--> statement-breakpoint
-- Before the delete: its wish-list rows go with it (ON DELETE CASCADE), and their people are told.
CREATE TRIGGER products_live_deleted BEFORE DELETE ON "products"
  FOR EACH ROW EXECUTE FUNCTION live_product_changed();--> statement-breakpoint

-- A sale took a step (booked, paid, cancelled, handed over, reported, refunded, expired): both sides.
CREATE FUNCTION live_order_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM live_tell(OLD.buyer_id, 'order', OLD.id);
    PERFORM live_tell(OLD.seller_id, 'order', OLD.id);
  ELSE
    PERFORM live_tell(NEW.buyer_id, 'order', NEW.id);
    PERFORM live_tell(NEW.seller_id, 'order', NEW.id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER orders_live AFTER INSERT OR UPDATE OR DELETE ON "orders"
  FOR EACH ROW EXECUTE FUNCTION live_order_changed();--> statement-breakpoint

-- The bell: a notification written, or read (in another tab, or by reading its conversation).
CREATE FUNCTION live_notification_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM live_tell(NEW.user_id, 'notification', NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER notifications_live AFTER INSERT OR UPDATE ON "notifications"
  FOR EACH ROW EXECUTE FUNCTION live_notification_changed();--> statement-breakpoint

-- A conversation: a message in it, or read by one side (both sides' lists show it).
CREATE FUNCTION live_conversation_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM live_tell(NEW.buyer_id, 'conversation', NEW.id);
  PERFORM live_tell(NEW.seller_id, 'conversation', NEW.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER conversations_live AFTER INSERT OR UPDATE ON "conversations"
  FOR EACH ROW EXECUTE FUNCTION live_conversation_changed();--> statement-breakpoint

-- A seller's money moved (the ledger): their Payouts page.
CREATE FUNCTION live_money_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.account LIKE 'seller:%' THEN
    PERFORM live_tell(split_part(NEW.account, ':', 2)::uuid, 'money', NULL);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER ledger_entries_live AFTER INSERT ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION live_money_moved();--> statement-breakpoint

-- An account's standing changed (a seller verified): what its person may do and shows.
CREATE FUNCTION live_account_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM live_tell(NEW.id, 'account', NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_live AFTER UPDATE OF user_status, type, is_admin ON "users"
  FOR EACH ROW WHEN (OLD.user_status IS DISTINCT FROM NEW.user_status
    OR OLD.type IS DISTINCT FROM NEW.type OR OLD.is_admin IS DISTINCT FROM NEW.is_admin)
  EXECUTE FUNCTION live_account_changed();

-- The search's counts kept in each server (decision 034): every statement that changes phones
-- tells the servers which ones (`pg_notify` at its transaction's commit, in commit order), and
-- every change of a seller's verified mark or address tells them to look at sellers again.
-- A statement's phones go in notices of 500 (a notice carries at most 8,000 bytes); past 2,000
-- phones (a bulk load) one notice says "all" and the servers read them all again.
CREATE FUNCTION search_products_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  seqs bigint[];
  i int;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(seq) INTO seqs FROM (SELECT seq FROM gone_products LIMIT 2001) s;
  ELSE
    SELECT array_agg(seq) INTO seqs FROM (SELECT seq FROM changed_products LIMIT 2001) s;
  END IF;
  IF seqs IS NULL THEN
    RETURN NULL;
  END IF;
  IF cardinality(seqs) > 2000 THEN
    PERFORM pg_notify('search_changes', 'all');
    RETURN NULL;
  END IF;
  FOR i IN 0 .. (cardinality(seqs) - 1) / 500 LOOP
    PERFORM pg_notify('search_changes',
      'phones:' || array_to_string(seqs[i * 500 + 1 : i * 500 + 500], ','));
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER products_search_counts_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS changed_products
  FOR EACH STATEMENT EXECUTE FUNCTION search_products_changed();--> statement-breakpoint
CREATE TRIGGER products_search_counts_update AFTER UPDATE ON products
  REFERENCING NEW TABLE AS changed_products
  FOR EACH STATEMENT EXECUTE FUNCTION search_products_changed();--> statement-breakpoint
CREATE TRIGGER products_search_counts_delete AFTER DELETE ON products
  REFERENCING OLD TABLE AS gone_products
  FOR EACH STATEMENT EXECUTE FUNCTION search_products_changed();--> statement-breakpoint
CREATE FUNCTION search_sellers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('search_changes', 'sellers');
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Only what moves a verified mark: a new account is not verified, and most updates of a user
-- touch neither the mark nor the address.
CREATE TRIGGER users_search_counts_insert AFTER INSERT ON users
  FOR EACH ROW WHEN (NEW.user_status IS NOT NULL)
  EXECUTE FUNCTION search_sellers_changed();--> statement-breakpoint
CREATE TRIGGER users_search_counts_update AFTER UPDATE OF user_status, email ON users
  FOR EACH ROW WHEN (OLD.user_status IS DISTINCT FROM NEW.user_status OR OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION search_sellers_changed();--> statement-breakpoint
CREATE TRIGGER users_search_counts_delete AFTER DELETE ON users
  FOR EACH ROW WHEN (OLD.user_status IS NOT NULL)
  EXECUTE FUNCTION search_sellers_changed();

-- Every account's mail key anew (issue 29, decision 040): mails sent before an unsubscribe link's
-- key was bound to its kind carried the raw key, from which the key of any kind can be made.
-- Those old links stop working (the page still leads to Mail settings).
UPDATE "users" SET "mail_key" = replace(gen_random_uuid()::text, '-', '');

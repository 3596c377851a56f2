-- A webhook event's payload (a serialized order or subscription: 2-4 kB of JSON) and an email's bodies
-- (about 2 kB of HTML and text) made their rows just long enough for PostgreSQL's default toasting
-- (rows over about 2 kB), so every insert compressed them with pglz to fit the row under that size: a
-- renewal writes five events and a receipt, and the compression was a tenth of the database's CPU in a
-- billing run. Rows up to the page's limit now stay in the table as they are; a larger one is toasted
-- as before. The cost is disk: these rows are stored uncompressed (about twice the size).
ALTER TABLE webhook_events SET (toast_tuple_target = 8160);
ALTER TABLE emails SET (toast_tuple_target = 8160);

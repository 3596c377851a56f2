-- An order's invoice number is taken as its transaction commits (modules/orders/orders.numbering.ts):
-- until then the row holds a provisional value, 'PROVISIONAL-' and its id. A transaction that would
-- commit an order still holding it (one that skipped the commit hooks) fails instead: no invoice goes
-- out without its number.
CREATE FUNCTION orders_invoice_number_assigned() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM orders WHERE id = NEW.id AND invoice_number LIKE 'PROVISIONAL-%') THEN
    RAISE EXCEPTION 'order % would commit without its invoice number', NEW.id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER orders_invoice_number_assigned AFTER INSERT ON orders
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION orders_invoice_number_assigned();

-- An organization's catalogue version: a number that changes whenever anything a product's wire shape
-- embeds changes (its row, prices, benefits, medias and their files, custom fields, the meters of its
-- prices). Product reads with an organization token are answered from a node's memory while the version
-- they were answered at holds (platform/http/response-cache.ts); the token's statement reads the version
-- with the organization, so a change counts at once on every node.
--
-- The triggers are deferred: the version moves as the writing transaction commits, in it (a reader sees
-- the new rows and the new version together), and the organization's row is locked only for that moment,
-- not from the first write of the transaction to its end.
ALTER TABLE organizations ADD COLUMN catalogue_version bigint NOT NULL DEFAULT 0;

-- A row of an organization (a product, benefit, file, custom field or meter).
CREATE FUNCTION catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE organizations SET catalogue_version = catalogue_version + 1 WHERE id = OLD.organization_id;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.organization_id IS DISTINCT FROM OLD.organization_id) THEN
    UPDATE organizations SET catalogue_version = catalogue_version + 1 WHERE id = NEW.organization_id;
  END IF;
  RETURN NULL;
END $$;

-- A row of a product (a price, or its link to a benefit, media or custom field): the product's
-- organization, none when the product was deleted in the same transaction (its own trigger moved it).
CREATE FUNCTION catalogue_product_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  product uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN product := OLD.product_id; ELSE product := NEW.product_id; END IF;
  UPDATE organizations SET catalogue_version = catalogue_version + 1
  WHERE id = (SELECT organization_id FROM products WHERE id = product);
  IF TG_OP = 'UPDATE' AND NEW.product_id IS DISTINCT FROM OLD.product_id THEN
    UPDATE organizations SET catalogue_version = catalogue_version + 1
    WHERE id = (SELECT organization_id FROM products WHERE id = OLD.product_id);
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER products_catalogue_changed AFTER INSERT OR UPDATE OR DELETE ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_changed();
CREATE CONSTRAINT TRIGGER product_prices_catalogue_changed AFTER INSERT OR UPDATE OR DELETE ON product_prices
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_product_changed();
CREATE CONSTRAINT TRIGGER product_benefits_catalogue_changed AFTER INSERT OR UPDATE OR DELETE ON product_benefits
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_product_changed();
CREATE CONSTRAINT TRIGGER product_medias_catalogue_changed AFTER INSERT OR UPDATE OR DELETE ON product_medias
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_product_changed();
CREATE CONSTRAINT TRIGGER product_custom_fields_catalogue_changed
  AFTER INSERT OR UPDATE OR DELETE ON product_custom_fields
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_product_changed();
CREATE CONSTRAINT TRIGGER benefits_catalogue_changed AFTER INSERT OR UPDATE OR DELETE ON benefits
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_changed();
-- A file or a meter is in a product's shape only once a product uses it (a media, a price's meter name).
CREATE CONSTRAINT TRIGGER files_catalogue_changed AFTER UPDATE OR DELETE ON files
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_changed();
CREATE CONSTRAINT TRIGGER custom_fields_catalogue_changed AFTER INSERT OR UPDATE OR DELETE ON custom_fields
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_changed();
CREATE CONSTRAINT TRIGGER meters_catalogue_changed AFTER UPDATE OF name ON meters
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_changed();

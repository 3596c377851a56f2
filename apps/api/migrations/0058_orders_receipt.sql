-- Receipts (GET /v1/orders/{id}/receipt): the stored PDF of the order's receipt. Its key names the
-- order's state it was rendered for (refunds, a lost dispute), so a receipt that no longer matches the
-- order is rendered again instead of being handed out.
ALTER TABLE orders ADD COLUMN receipt_path text;

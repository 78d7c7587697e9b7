-- Back to a version without holds: open holds are let go (their remittances pending again) and the
-- hold/release pairs leave the ledger (each pair sums to zero on its own, so every ledger still does).
DROP INDEX transactions_movement_once_key;
DELETE FROM ledger_entries WHERE transaction_id IN (SELECT id FROM transactions WHERE type IN ('hold', 'release'));
DELETE FROM transactions WHERE type IN ('hold', 'release');
CREATE UNIQUE INDEX transactions_reference_type_reference_id_type_key ON transactions (reference_type, reference_id, type);
ALTER TABLE wallets DROP CONSTRAINT wallets_held_not_negative;
UPDATE wallets SET held = 0;
UPDATE remittances SET status = 'pending' WHERE status = 'processing';
ALTER TABLE remittances DROP CONSTRAINT remittances_status_known;
ALTER TABLE remittances ADD CONSTRAINT remittances_status_known CHECK (status IN ('pending', 'completed'));

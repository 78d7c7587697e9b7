-- Spec 3, States (remittance) and Transaction types hold, release: a remittance is `processing` while
-- the payer's money is held for the recipient; the held amount never goes below zero nor above the
-- balance's reach; holds and releases may repeat for one remittance (a delivery that failed and was
-- released, then processed again), credits and debits stay one per reference.
ALTER TABLE remittances DROP CONSTRAINT remittances_status_known;
ALTER TABLE remittances ADD CONSTRAINT remittances_status_known CHECK (status IN ('pending', 'processing', 'completed'));
ALTER TABLE wallets ADD CONSTRAINT wallets_held_not_negative CHECK (held >= 0);
DROP INDEX IF EXISTS transactions_reference_type_reference_id_type_key;
CREATE UNIQUE INDEX transactions_movement_once_key ON transactions (reference_type, reference_id, type) WHERE type IN ('credit', 'debit');

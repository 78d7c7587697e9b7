ALTER TABLE remittances DROP CONSTRAINT remittances_amount_positive;
ALTER TABLE remittances DROP CONSTRAINT remittances_status_known;
ALTER TABLE transactions DROP CONSTRAINT transactions_amount_positive;
ALTER TABLE transactions DROP CONSTRAINT transactions_type_known;
ALTER TABLE wallets DROP CONSTRAINT wallets_pending_not_negative;

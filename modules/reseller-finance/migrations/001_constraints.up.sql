-- Spec 3: amounts of remittances and transactions are positive; entries of one transaction sum to zero
-- (checked in code); the pending totals never go below zero.
ALTER TABLE remittances ADD CONSTRAINT remittances_amount_positive CHECK (amount > 0);
ALTER TABLE remittances ADD CONSTRAINT remittances_status_known CHECK (status IN ('pending', 'completed'));
ALTER TABLE transactions ADD CONSTRAINT transactions_amount_positive CHECK (amount > 0);
ALTER TABLE transactions ADD CONSTRAINT transactions_type_known CHECK (type IN ('credit', 'debit', 'hold', 'release'));
ALTER TABLE wallets ADD CONSTRAINT wallets_pending_not_negative CHECK (pending_credits >= 0 AND pending_debits >= 0 AND credit_limit >= 0);

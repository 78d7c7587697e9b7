-- Returns and refunds across the chain (README: decisions): a remittance not yet paid when its
-- order is reversed is `cancelled`.
ALTER TABLE remittances DROP CONSTRAINT remittances_status_known;
ALTER TABLE remittances ADD CONSTRAINT remittances_status_known CHECK (status IN ('pending', 'processing', 'completed', 'cancelled'));

-- Back to a version without reversals: a cancelled remittance leaves (it moved no money).
DELETE FROM remittances WHERE status = 'cancelled';
ALTER TABLE remittances DROP CONSTRAINT remittances_status_known;
ALTER TABLE remittances ADD CONSTRAINT remittances_status_known CHECK (status IN ('pending', 'processing', 'completed'));

-- Back to one remittance per pair and order. Where partial refunds left several, this index cannot be
-- made and the rollback is refused: those remittances moved money, so nothing is deleted to force it.
CREATE UNIQUE INDEX IF NOT EXISTS remittances_chain_ref_payer_tenant_id_recipient_tenant_id_key ON remittances (chain_ref, payer_tenant_id, recipient_tenant_id);

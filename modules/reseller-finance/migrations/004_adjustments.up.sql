-- Partial refunds (README: refunds through the chain): a pair of levels may now have several
-- remittances for one order, one per cause (adjustment_ref: the delivery '', each partial refund,
-- the reversal). The declared index remittances_pair_adjustment_key (schema sync, before this) keeps
-- each one; the index on the pair alone, from before adjustments, would refuse the second.
DROP INDEX IF EXISTS remittances_chain_ref_payer_tenant_id_recipient_tenant_id_key;

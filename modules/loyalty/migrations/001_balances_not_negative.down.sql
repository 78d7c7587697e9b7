ALTER TABLE balances DROP CONSTRAINT IF EXISTS balances_points_not_negative;

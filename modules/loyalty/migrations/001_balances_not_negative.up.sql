-- A balance never goes below zero: loyalty.redeem checks it first, this is the database's guarantee.
ALTER TABLE balances ADD CONSTRAINT balances_points_not_negative CHECK (points >= 0);

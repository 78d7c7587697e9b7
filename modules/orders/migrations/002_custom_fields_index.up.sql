-- Spec 3 custom fields: the order list filters filterable fields with custom_fields @> '{...}'
-- (host.db $contains). A GIN index with jsonb_path_ops serves exactly that containment test;
-- manifest indexes are btree only, hence a migration.
CREATE INDEX IF NOT EXISTS orders_custom_fields_gin ON orders USING gin (custom_fields jsonb_path_ops);

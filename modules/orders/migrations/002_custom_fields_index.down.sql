DROP INDEX IF EXISTS orders_custom_fields_gin;

-- Orders made before customer_name existed: copy customer.name into it, so the list's search finds them.
UPDATE orders SET customer_name = left(customer->>'name', 255) WHERE customer_name IS NULL AND customer->>'name' IS NOT NULL;

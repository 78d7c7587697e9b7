-- Spec 3 Analytics: pre-computed statistics, refreshed every 15 minutes with
-- REFRESH MATERIALIZED VIEW CONCURRENTLY (core operation data.refresh_view), which needs a unique
-- index on each view. Days are UTC calendar days as text (YYYY-MM-DD).
CREATE MATERIALIZED VIEW mv_daily_order_stats AS
  SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
         status, payment_status, is_cod,
         count(*)::bigint AS order_count,
         sum(total) AS total_amount
    FROM orders
   GROUP BY 1, 2, 3, 4
  WITH NO DATA;
CREATE UNIQUE INDEX mv_daily_order_stats_key ON mv_daily_order_stats (day, status, payment_status, is_cod);

CREATE MATERIALIZED VIEW mv_order_source_stats AS
  SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
         coalesce(source, 'unknown') AS source, status = 'cancelled' AS cancelled,
         count(*)::bigint AS order_count,
         sum(total) AS total_amount
    FROM orders
   GROUP BY 1, 2, 3
  WITH NO DATA;
CREATE UNIQUE INDEX mv_order_source_stats_key ON mv_order_source_stats (day, source, cancelled);

-- Unique customers over a range cannot be summed from daily counts: keep the distinct pairs.
CREATE MATERIALIZED VIEW mv_daily_customers AS
  SELECT DISTINCT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
         coalesce(customer_id, customer->>'email', customer->>'phone', 'order:' || id::text) AS customer_key
    FROM orders
  WITH NO DATA;
CREATE UNIQUE INDEX mv_daily_customers_key ON mv_daily_customers (day, customer_key);

CREATE MATERIALIZED VIEW mv_daily_product_stats AS
  SELECT to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
         coalesce(i.sku, 'name:' || i.name) AS product_key,
         min(i.name) AS name, min(i.sku) AS sku,
         sum(i.quantity)::bigint AS quantity,
         sum(i.total) AS revenue
    FROM order_items i JOIN orders o ON o.id = i.order_id
   WHERE o.status <> 'cancelled'
   GROUP BY 1, 2
  WITH NO DATA;
CREATE UNIQUE INDEX mv_daily_product_stats_key ON mv_daily_product_stats (day, product_key);

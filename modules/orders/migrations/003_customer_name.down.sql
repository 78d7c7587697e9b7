-- The column stays (schema sync never drops); nothing to undo.
SELECT 1;

-- The database itself refuses an agent over its maximum (spec 2: max_concurrent_chats), whatever the code does.
ALTER TABLE agents ADD CONSTRAINT agents_chats_in_bounds CHECK (current_chats_count >= 0 AND current_chats_count <= max_concurrent_chats);
-- The one row every queue drain locks first, so drains run one at a time (src/assignment.ts).
INSERT INTO assignment_lock (id) VALUES (1) ON CONFLICT DO NOTHING;

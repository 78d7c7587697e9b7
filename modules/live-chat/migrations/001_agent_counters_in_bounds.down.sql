ALTER TABLE agents DROP CONSTRAINT agents_chats_in_bounds;

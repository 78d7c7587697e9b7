DELETE FROM assignment_lock WHERE id = 1;
ALTER TABLE agents DROP CONSTRAINT agents_chats_in_bounds;

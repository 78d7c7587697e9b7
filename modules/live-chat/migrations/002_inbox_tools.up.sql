-- A short code is unique per owner: among the tenant's canned responses (agent_id null) and among each agent's own (README, Canned responses).
CREATE UNIQUE INDEX canned_responses_owner_code ON canned_responses (COALESCE(agent_id, 0), lower(short_code));
-- A label name is unique in the tenant whatever its case (README, Labels).
CREATE UNIQUE INDEX labels_name_ci ON labels (lower(name));

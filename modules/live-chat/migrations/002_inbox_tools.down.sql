DROP INDEX IF EXISTS labels_name_ci;
DROP INDEX IF EXISTS canned_responses_owner_code;

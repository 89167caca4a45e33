-- A long message's body is stored before its Run exists; the Run that carries it claims it. A body
-- no Run claimed (its creation failed) is removed by the retention sweep once old enough.
ALTER TABLE message_bodies ADD COLUMN stored_ms BIGINT;
ALTER TABLE message_bodies ADD COLUMN run TEXT;
-- Bodies stored before claims existed belong to runs nobody named: kept, as before.
UPDATE message_bodies SET run = '';
CREATE INDEX message_bodies_unclaimed ON message_bodies (stored_ms) WHERE run IS NULL;

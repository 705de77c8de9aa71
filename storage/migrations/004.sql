-- 4: batches over files. Old "sending" rows had their request on its way:
-- they become "starting"; "sending" now means files being sent.
ALTER TABLE batches ADD COLUMN folder TEXT NOT NULL DEFAULT '';
ALTER TABLE batches ADD COLUMN attach INTEGER NOT NULL DEFAULT 0;
ALTER TABLE batch_rows ADD COLUMN uploads TEXT NOT NULL DEFAULT '[]';
ALTER TABLE batch_rows ADD COLUMN files TEXT NOT NULL DEFAULT '[]';
ALTER TABLE batches ADD COLUMN outputs TEXT NOT NULL DEFAULT '';
ALTER TABLE batches ADD COLUMN planned TEXT NOT NULL DEFAULT '';
UPDATE batch_rows SET state = 'starting' WHERE state = 'sending';

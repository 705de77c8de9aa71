-- 5: batches that pull facts out of each reply: the facts asked for, each
-- row's values of them, and whether its agent was asked once more (never
-- twice). "look" rows answered, but not in the shape asked for.
ALTER TABLE batches ADD COLUMN fields TEXT NOT NULL DEFAULT '[]';
ALTER TABLE batch_rows ADD COLUMN fields TEXT NOT NULL DEFAULT '[]';
ALTER TABLE batch_rows ADD COLUMN asked INTEGER NOT NULL DEFAULT 0;

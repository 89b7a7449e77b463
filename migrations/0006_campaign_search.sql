-- Campaign-name search (CampaignName on Campaigns and Expected Campaigns) through a trigram
-- index instead of testing every campaign: with 10,000 campaigns a term found once read them all.
-- One column holds the three names joined as the filter's row test joins them, folded like the
-- other search indexes (0005: Azerbaijani letters to their Latin base, case by the tokenizer).
-- Contentless, rows leave through FTS5's 'delete' command with the values they were added with.
-- It holds every live campaign, confirmed or not: both lists read it.
--
-- Also: the name sorts in English and Russian walk an index, as the Az one does (0001).

CREATE VIRTUAL TABLE campaigns_search USING fts5 (names, content = '', tokenize = 'trigram');
INSERT INTO campaigns_search (rowid, names)
SELECT c.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(c.name_az || ' ' || c.name_en || ' ' || c.name_ru, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') FROM campaigns c WHERE c.deleted_at IS NULL;
CREATE TRIGGER campaigns_search_ai AFTER INSERT ON campaigns WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO campaigns_search (rowid, names) VALUES (new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.name_az || ' ' || new.name_en || ' ' || new.name_ru, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER campaigns_search_ad AFTER DELETE ON campaigns WHEN old.deleted_at IS NULL BEGIN
    INSERT INTO campaigns_search (campaigns_search, rowid, names) VALUES ('delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.name_az || ' ' || old.name_en || ' ' || old.name_ru, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER campaigns_search_au AFTER UPDATE OF name_az, name_en, name_ru, deleted_at ON campaigns BEGIN
    INSERT INTO campaigns_search (campaigns_search, rowid, names)
    SELECT 'delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.name_az || ' ' || old.name_en || ' ' || old.name_ru, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE old.deleted_at IS NULL;
    INSERT INTO campaigns_search (rowid, names)
    SELECT new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.name_az || ' ' || new.name_en || ' ' || new.name_ru, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE new.deleted_at IS NULL;
END;

CREATE INDEX campaigns_name_en ON campaigns (name_en, id) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_name_ru ON campaigns (name_ru, id) WHERE deleted_at IS NULL;

-- Substring search as Azerbaijani staff type: `ilkin` finds `İlkin`, `ismayil` finds `İsmayıl`,
-- `sahin` finds `Şahin`, `gulnar` finds `Gülnar`, `cingiz` finds `Çingiz`, `memmedov` finds
-- `Məmmədov` (docs/decisions.md). The trigram indexes now store text with the Azerbaijani letters
-- folded to their Latin base letters (İ ı → i, Ş ş → s, Ç ç → c, Ü ü → u, Ö ö → o, Ğ ğ → g,
-- Ə ə → e); the tokenizer folds the remaining case. The search term is folded the same way in
-- Rust (src/db/text.rs, `fold_search`), and so is the row test `contains_text`.
--
-- The folding is plain SQL (nested replace) rather than a registered function, so any SQLite
-- client (bench/fill.py, the sqlite3 shell) can still write these tables. Because the indexed
-- text is no longer the table's own text, the indexes are contentless (they were external-content
-- tables, whose 'rebuild' and integrity check would read the unfolded columns); a row leaves the
-- index through FTS5's 'delete' command with the same folded values it was added with (not
-- contentless_delete, which SQLite before 3.43, e.g. Debian's Python, cannot open). Only rowids
-- are ever read from them.

DROP TRIGGER users_search_ai;
DROP TRIGGER users_search_ad;
DROP TRIGGER users_search_au;
DROP TABLE users_search;
CREATE VIRTUAL TABLE users_search USING fts5 (
    first_name, last_name, email, content = '', tokenize = 'trigram'
);
INSERT INTO users_search (rowid, first_name, last_name, email)
SELECT u.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(u.first_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(u.last_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(u.email, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e')
FROM users u WHERE u.kind = 'staff' AND u.deleted_at IS NULL;
CREATE TRIGGER users_search_ai AFTER INSERT ON users WHEN new.kind = 'staff' AND new.deleted_at IS NULL BEGIN
    INSERT INTO users_search (rowid, first_name, last_name, email)
    VALUES (new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.first_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.last_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.email, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER users_search_ad AFTER DELETE ON users WHEN old.kind = 'staff' AND old.deleted_at IS NULL BEGIN
    INSERT INTO users_search (users_search, rowid, first_name, last_name, email)
    VALUES ('delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.first_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.last_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.email, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER users_search_au AFTER UPDATE OF first_name, last_name, email, kind, deleted_at ON users BEGIN
    INSERT INTO users_search (users_search, rowid, first_name, last_name, email)
    SELECT 'delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.first_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.last_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.email, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e')
    WHERE old.kind = 'staff' AND old.deleted_at IS NULL;
    INSERT INTO users_search (rowid, first_name, last_name, email)
    SELECT new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.first_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.last_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.email, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e')
    WHERE new.kind = 'staff' AND new.deleted_at IS NULL;
END;

DROP TRIGGER usage_history_search_ai;
DROP TRIGGER usage_history_search_ad;
DROP TRIGGER usage_history_search_au;
DROP TABLE usage_history_search;
CREATE VIRTUAL TABLE usage_history_search USING fts5 (
    campaign_name, content = '', tokenize = 'trigram'
);
INSERT INTO usage_history_search (rowid, campaign_name)
SELECT h.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(h.campaign_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') FROM usage_history h WHERE h.deleted_at IS NULL;
CREATE TRIGGER usage_history_search_ai AFTER INSERT ON usage_history WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO usage_history_search (rowid, campaign_name)
    VALUES (new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.campaign_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER usage_history_search_ad AFTER DELETE ON usage_history WHEN old.deleted_at IS NULL BEGIN
    INSERT INTO usage_history_search (usage_history_search, rowid, campaign_name)
    VALUES ('delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.campaign_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER usage_history_search_au AFTER UPDATE OF campaign_name, deleted_at ON usage_history BEGIN
    INSERT INTO usage_history_search (usage_history_search, rowid, campaign_name)
    SELECT 'delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.campaign_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE old.deleted_at IS NULL;
    INSERT INTO usage_history_search (rowid, campaign_name)
    SELECT new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.campaign_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE new.deleted_at IS NULL;
END;

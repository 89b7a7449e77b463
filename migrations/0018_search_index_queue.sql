-- The search indexes' entries of a shared write transaction are written at its commit, in one
-- statement per index, instead of at each write (docs/decisions.md, "SQLite's search indexes are
-- fed at the group commit's COMMIT").
--
-- The group commit (src/db/batch.rs) runs each writer's work in a savepoint of one transaction,
-- and FTS5 writes its pending entries to disk, and merges its segments, at every savepoint's start
-- and release: under load a recorded discount use paid that alone, about a sixth of its cost. So
-- while a connection defers the indexes (`search_deferred(index)`, a function perkdesk registers:
-- true only on the group commit's connection, from the second writer of a transaction to its
-- COMMIT), the triggers queue each index entry in a plain table, with the same folded values and
-- in order; just before the COMMIT the queue goes into the index and is emptied, in the same
-- transaction. Readers only ever see committed data, so the index is exact for every reader, and
-- a writer's savepoint rolled back takes its queued entries with it. Every other writer (a
-- `perkdesk sql` statement, an import, a tool through scripts/perkdesk_sqlite.py, whose stand-in
-- answers false) writes the index at once, as before. The argument names the index (1 users,
-- 2 usage history, 4 campaigns), so the commit moves only the queues that have entries.

-- users
CREATE TABLE users_search_queue (
    seq     INTEGER PRIMARY KEY,
    command TEXT,
    row_id  INTEGER NOT NULL,
    first_name TEXT,
    last_name TEXT,
    email TEXT
);
DROP TRIGGER users_search_ai;
DROP TRIGGER users_search_ad;
DROP TRIGGER users_search_au;
CREATE TRIGGER users_search_ai AFTER INSERT ON users WHEN new.kind = 'staff' AND new.deleted_at IS NULL AND NOT search_deferred(1) BEGIN
    INSERT INTO users_search (rowid, first_name, last_name, email) VALUES (new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.first_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.last_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.email, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER users_search_ad AFTER DELETE ON users WHEN old.kind = 'staff' AND old.deleted_at IS NULL AND NOT search_deferred(1) BEGIN
    INSERT INTO users_search (users_search, rowid, first_name, last_name, email) VALUES ('delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.first_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.last_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.email, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER users_search_au AFTER UPDATE OF first_name, last_name, email, kind, deleted_at ON users WHEN NOT search_deferred(1) BEGIN
    INSERT INTO users_search (users_search, rowid, first_name, last_name, email)
    SELECT 'delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.first_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.last_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.email, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE old.kind = 'staff' AND old.deleted_at IS NULL;
    INSERT INTO users_search (rowid, first_name, last_name, email)
    SELECT new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.first_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.last_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.email, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE new.kind = 'staff' AND new.deleted_at IS NULL;
END;
CREATE TRIGGER users_search_queue_ai AFTER INSERT ON users WHEN new.kind = 'staff' AND new.deleted_at IS NULL AND search_deferred(1) BEGIN
    INSERT INTO users_search_queue (command, row_id, first_name, last_name, email) VALUES (NULL, new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.first_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.last_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.email, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER users_search_queue_ad AFTER DELETE ON users WHEN old.kind = 'staff' AND old.deleted_at IS NULL AND search_deferred(1) BEGIN
    INSERT INTO users_search_queue (command, row_id, first_name, last_name, email) VALUES ('delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.first_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.last_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.email, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER users_search_queue_au AFTER UPDATE OF first_name, last_name, email, kind, deleted_at ON users WHEN search_deferred(1) BEGIN
    INSERT INTO users_search_queue (command, row_id, first_name, last_name, email)
    SELECT 'delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.first_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.last_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.email, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE old.kind = 'staff' AND old.deleted_at IS NULL;
    INSERT INTO users_search_queue (command, row_id, first_name, last_name, email)
    SELECT NULL, new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.first_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.last_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'), replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.email, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE new.kind = 'staff' AND new.deleted_at IS NULL;
END;
-- usage_history
CREATE TABLE usage_history_search_queue (
    seq     INTEGER PRIMARY KEY,
    command TEXT,
    row_id  INTEGER NOT NULL,
    campaign_name TEXT
);
DROP TRIGGER usage_history_search_ai;
DROP TRIGGER usage_history_search_ad;
DROP TRIGGER usage_history_search_au;
CREATE TRIGGER usage_history_search_ai AFTER INSERT ON usage_history WHEN new.deleted_at IS NULL AND NOT search_deferred(2) BEGIN
    INSERT INTO usage_history_search (rowid, campaign_name) VALUES (new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.campaign_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER usage_history_search_ad AFTER DELETE ON usage_history WHEN old.deleted_at IS NULL AND NOT search_deferred(2) BEGIN
    INSERT INTO usage_history_search (usage_history_search, rowid, campaign_name) VALUES ('delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.campaign_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER usage_history_search_au AFTER UPDATE OF campaign_name, deleted_at ON usage_history WHEN NOT search_deferred(2) BEGIN
    INSERT INTO usage_history_search (usage_history_search, rowid, campaign_name)
    SELECT 'delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.campaign_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE old.deleted_at IS NULL;
    INSERT INTO usage_history_search (rowid, campaign_name)
    SELECT new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.campaign_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE new.deleted_at IS NULL;
END;
CREATE TRIGGER usage_history_search_queue_ai AFTER INSERT ON usage_history WHEN new.deleted_at IS NULL AND search_deferred(2) BEGIN
    INSERT INTO usage_history_search_queue (command, row_id, campaign_name) VALUES (NULL, new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.campaign_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER usage_history_search_queue_ad AFTER DELETE ON usage_history WHEN old.deleted_at IS NULL AND search_deferred(2) BEGIN
    INSERT INTO usage_history_search_queue (command, row_id, campaign_name) VALUES ('delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.campaign_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER usage_history_search_queue_au AFTER UPDATE OF campaign_name, deleted_at ON usage_history WHEN search_deferred(2) BEGIN
    INSERT INTO usage_history_search_queue (command, row_id, campaign_name)
    SELECT 'delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.campaign_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE old.deleted_at IS NULL;
    INSERT INTO usage_history_search_queue (command, row_id, campaign_name)
    SELECT NULL, new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.campaign_name, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE new.deleted_at IS NULL;
END;
-- campaigns
CREATE TABLE campaigns_search_queue (
    seq     INTEGER PRIMARY KEY,
    command TEXT,
    row_id  INTEGER NOT NULL,
    names TEXT
);
DROP TRIGGER campaigns_search_ai;
DROP TRIGGER campaigns_search_ad;
DROP TRIGGER campaigns_search_au;
CREATE TRIGGER campaigns_search_ai AFTER INSERT ON campaigns WHEN new.deleted_at IS NULL AND NOT search_deferred(4) BEGIN
    INSERT INTO campaigns_search (rowid, names) VALUES (new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.name_az || ' ' || new.name_en || ' ' || new.name_ru, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER campaigns_search_ad AFTER DELETE ON campaigns WHEN old.deleted_at IS NULL AND NOT search_deferred(4) BEGIN
    INSERT INTO campaigns_search (campaigns_search, rowid, names) VALUES ('delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.name_az || ' ' || old.name_en || ' ' || old.name_ru, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER campaigns_search_au AFTER UPDATE OF name_az, name_en, name_ru, deleted_at ON campaigns WHEN NOT search_deferred(4) BEGIN
    INSERT INTO campaigns_search (campaigns_search, rowid, names)
    SELECT 'delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.name_az || ' ' || old.name_en || ' ' || old.name_ru, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE old.deleted_at IS NULL;
    INSERT INTO campaigns_search (rowid, names)
    SELECT new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.name_az || ' ' || new.name_en || ' ' || new.name_ru, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE new.deleted_at IS NULL;
END;
CREATE TRIGGER campaigns_search_queue_ai AFTER INSERT ON campaigns WHEN new.deleted_at IS NULL AND search_deferred(4) BEGIN
    INSERT INTO campaigns_search_queue (command, row_id, names) VALUES (NULL, new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.name_az || ' ' || new.name_en || ' ' || new.name_ru, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER campaigns_search_queue_ad AFTER DELETE ON campaigns WHEN old.deleted_at IS NULL AND search_deferred(4) BEGIN
    INSERT INTO campaigns_search_queue (command, row_id, names) VALUES ('delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.name_az || ' ' || old.name_en || ' ' || old.name_ru, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e'));
END;
CREATE TRIGGER campaigns_search_queue_au AFTER UPDATE OF name_az, name_en, name_ru, deleted_at ON campaigns WHEN search_deferred(4) BEGIN
    INSERT INTO campaigns_search_queue (command, row_id, names)
    SELECT 'delete', old.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(old.name_az || ' ' || old.name_en || ' ' || old.name_ru, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE old.deleted_at IS NULL;
    INSERT INTO campaigns_search_queue (command, row_id, names)
    SELECT NULL, new.id, replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(new.name_az || ' ' || new.name_en || ' ' || new.name_ru, 'İ', 'i'), 'ı', 'i'), 'Ş', 's'), 'ş', 's'), 'Ç', 'c'), 'ç', 'c'), 'Ü', 'u'), 'ü', 'u'), 'Ö', 'o'), 'ö', 'o'), 'Ğ', 'g'), 'ğ', 'g'), 'Ə', 'e'), 'ə', 'e') WHERE new.deleted_at IS NULL;
END;

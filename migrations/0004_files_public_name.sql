-- Uploaded images are served under a random, unguessable name (/cdn/{public_name}.{ext}) instead
-- of their sequential id, so nobody can walk /cdn/1.png, /cdn/2.png, ... through every upload.
-- Files already stored get a name here: filePath is computed from this column on every read, so
-- every answer names the new paths at once; the old sequential paths stop being served.
ALTER TABLE files ADD COLUMN public_name TEXT;
UPDATE files SET public_name = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX files_public_name ON files (public_name);

-- The pair a refresh token was exchanged for, sealed (ChaCha20-Poly1305) with a key derived from
-- the spent token itself, which is stored only hashed: a repeat of the same refresh within the
-- grace window (two tabs, a retried request) gets the same pair back; nobody reading the database
-- can open it.
ALTER TABLE refresh_tokens ADD COLUMN successor BLOB;

-- The unsigned public URL of product media and avatars, fixed when the file is created (the storage
-- backend and its public bucket decide it), so that products show their media without the storage.
ALTER TABLE files ADD COLUMN public_url text;

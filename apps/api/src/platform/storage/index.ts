import { join } from 'node:path';
import type { Config } from '../../config.js';
import { LocalDiskStorage } from './local-disk.js';
import { LazyS3Storage } from './s3-lazy.js';
import { signingKeyOf } from './signed-url.js';
import type { ObjectStorage } from './storage.js';

export * from './storage.js';

const instances = new WeakMap<Config, ObjectStorage>();

/**
 * The object storage of a configuration, one instance per configuration (a process's API and workers
 * share it). An S3-compatible bucket when `S3_BUCKET` is set; otherwise local disk under
 * `DATA_DIR/storage`, links signed with a key derived from SECRET. The AWS SDK loads at S3's first use.
 */
export function objectStorage(config: Config): ObjectStorage {
  let storage = instances.get(config);
  if (!storage) {
    storage = config.s3
      ? new LazyS3Storage(config.s3)
      : new LocalDiskStorage({
          root: join(config.dataDir, 'storage'),
          baseUrl: config.baseUrl,
          signingKey: signingKeyOf(config.secret),
        });
    instances.set(config, storage);
  }
  return storage;
}

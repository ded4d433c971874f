/**
 * The audit events' copy outside the table (docs/audit.md, "The Object Lock copy"): each new event,
 * as the table's stream hands it, linked to its client's hash chain (shared/data/audit-chain.ts), then
 * written once, with its link, as an object of its own under
 * `audit/<client>/<position in the client's chain>-<event id>.json`, in a bucket with Object Lock in
 * compliance mode (infra/constructs/audit-archive-bucket.ts): for the stage's retention nobody, the
 * account's root included, may delete or overwrite it. On a developer's machine the bucket is a folder
 * (AUDIT_ARCHIVE_DIR), whose files are created once and never overwritten, as the bucket's objects.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { ENV } from '../runtime/config';
import { AUDIT_EVENT_ENTITY, linkAuditEvents, type ChainLink } from './audit-chain';
import { s3 } from './s3-client';

export const AUDIT_ARCHIVE_PREFIX = 'audit/';

/** Where the copies are written: an object is never replaced by a different one. */
export interface ArchiveStore {
  put(key: string, body: string): Promise<void>;
}

/** A stored event (the stream's new image, unmarshalled). */
export type StoredAuditEvent = Readonly<Record<string, unknown>>;

const SAFE = /^[A-Za-z0-9._:@-]{1,200}$/;

/**
 * The object of an event: the client's folder, then the event's position in the client's chain
 * (12 digits, so that names sort in chain order) and its id.
 */
export function auditObjectKey(event: StoredAuditEvent, link: ChainLink): string {
  const tenant = String(event['tenant']);
  const id = String(event['id']);
  if (!SAFE.test(tenant) || !SAFE.test(id)) throw new Error(`An audit event's client or id unfit for a key: ${id}`);
  const position = String(link.chain_sequence).padStart(12, '0');
  return `${AUDIT_ARCHIVE_PREFIX}${tenant}/${position}-${id}.json`;
}

/** The copy's content: the event as stored with its link, its index keys aside, keys in a stable order. */
export function auditObjectBody(event: StoredAuditEvent, link: ChainLink): string {
  const linked = {
    ...event,
    previous_hash: link.previous_hash,
    hash: link.hash,
    chain_sequence: link.chain_sequence,
  };
  const kept = Object.entries(linked)
    .filter(([name]) => !/^(pk|sk|gsi\d+(pk|sk))$/.test(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${JSON.stringify(Object.fromEntries(kept))}\n`;
}

/** The new images that are audit events. */
export const auditEventsAmong = (images: readonly StoredAuditEvent[]): StoredAuditEvent[] =>
  images.filter((image) => image['entity'] === AUDIT_EVENT_ENTITY);

/** One linked event's copy, written once. */
export const copyAuditEvent = (event: StoredAuditEvent, link: ChainLink, store: ArchiveStore): Promise<void> =>
  store.put(auditObjectKey(event, link), auditObjectBody(event, link));

/**
 * The audit events among a batch of new images, linked (each client's in one transaction), then each
 * copied once, in the batch's order; what is not an event is passed over.
 */
export async function archiveAuditEvents(images: readonly StoredAuditEvent[], store: ArchiveStore): Promise<number> {
  const events = auditEventsAmong(images);
  const links = await linkAuditEvents(events);
  for (const event of events) await copyAuditEvent(event, links.get(String(event['id']))!, store);
  return events.length;
}

/**
 * The Object Lock bucket. The bucket's default retention (compliance mode) locks each object as it is
 * written; a batch handed again writes the same bytes as a new version, the first one kept locked.
 */
export const s3ArchiveStore: ArchiveStore = {
  async put(key, body) {
    const bucket = process.env[ENV.auditArchiveBucketName];
    if (!bucket) throw new Error(`${ENV.auditArchiveBucketName} is not set: the stack sets it on the audit archiver`);
    // Object Lock asks every write for an integrity check: Content-MD5.
    const md5 = createHash('md5').update(body).digest('base64');
    await s3().send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'application/json', ContentMD5: md5 }),
    );
  },
};

/** A folder standing in for the bucket: a file is created once; the same bytes again are a retry, others refused. */
export const folderArchiveStore = (folder: string): ArchiveStore => ({
  async put(key, body) {
    const path = join(folder, key);
    await mkdir(dirname(path), { recursive: true });
    try {
      await writeFile(path, body, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if ((await readFile(path, 'utf8')) !== body)
        throw new Error(`The archived audit event ${key} differs: kept as it was`, { cause: error });
    }
  },
});

/** Where this process copies events: the stage's bucket when the stack named it, else the local folder. */
export function archiveStore(): ArchiveStore {
  if (process.env[ENV.auditArchiveBucketName]) return s3ArchiveStore;
  const folder = process.env[ENV.auditArchiveDir];
  if (!folder) throw new Error(`Neither ${ENV.auditArchiveBucketName} nor ${ENV.auditArchiveDir} is set`);
  return folderArchiveStore(folder);
}

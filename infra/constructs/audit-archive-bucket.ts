/**
 * The audit events' Object Lock bucket (docs/audit.md, "The Object Lock copy"): the audit archiver
 * (functions/archive-audit-events.ts) writes each new event as an object under `audit/<client>/`, and
 * the bucket's default retention locks it in compliance mode for the stage's `auditArchiveRetentionDays`:
 * until then nobody, the account's root included, can overwrite or delete it, nor shorten its lock.
 * Versioned (Object Lock needs it), private, TLS only, encrypted. Kept when the stack is deleted on
 * every stage: a bucket holding locked objects cannot be emptied before their retention ends.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  ObjectLockRetention,
  ObjectOwnership,
  type IBucket,
} from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { AUDIT_ARCHIVE_PREFIX } from '../../shared/data/audit-archive';
import type { StageSettings } from '../stages';

/** What the archiver may do: write new objects under the audit prefix, nothing else (no read, no delete). */
export const auditArchiveStatement = (bucket: IBucket): PolicyStatement =>
  new PolicyStatement({ actions: ['s3:PutObject'], resources: [bucket.arnForObjects(`${AUDIT_ARCHIVE_PREFIX}*`)] });

export class AuditArchiveBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, { settings }: { readonly settings: StageSettings }) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      objectLockEnabled: true,
      objectLockDefaultRetention: ObjectLockRetention.compliance(Duration.days(settings.auditArchiveRetentionDays)),
      versioned: true,
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    NagSuppressions.addResourceSuppressions(this.bucket, [
      {
        id: 'AwsSolutions-S1',
        reason:
          'Written by the audit archiver alone (PutObject, no read): what reaches the objects is the ' +
          "archiver's role and the stage's CloudTrail; the objects themselves are locked in compliance mode.",
      },
    ]);
  }
}

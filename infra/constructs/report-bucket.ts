/**
 * The bucket of the report files (docs/reconciliation.md, "Reports"): what the report worker writes
 * and the report get presigns downloads of. Encrypted with the stage's key (an S3 Bucket Key per
 * bucket, so S3 calls KMS once in a while rather than per object), every public access
 * blocked, requests without TLS refused, each file deleted REPORT_FILE_DAYS after it was written (an
 * upload a crashed run left incomplete after a day), kept or removed with the stage's data. Only the
 * functions whose entry declares `reportFiles` reach it, each only for what it declares
 * (reportFilesStatements).
 */
import { Duration } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type IBucket } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { ReportFilesUse } from '../../functions/routes';
import { REPORT_FILE_DAYS, REPORT_FILES_PREFIX } from '../../shared/domain/reports';
import { SETTLEMENT_FILES_PREFIX } from '../../shared/domain/settlement-files';
import { removalPolicyOf, type StageSettings } from '../stages';

/** The S3 actions of each use of the report files: writing a file (in parts) or reading one (presigning its download). */
export const REPORT_FILES_ACTIONS: Readonly<Record<ReportFilesUse, readonly string[]>> = {
  // PutObject covers CreateMultipartUpload, UploadPart and CompleteMultipartUpload.
  write: ['s3:PutObject', 's3:AbortMultipartUpload'],
  read: ['s3:GetObject'],
};

/** The declared uses of the report files, on the files alone (the bucket's objects under the reports prefix). */
export const reportFilesStatement = (bucket: IBucket, uses: readonly ReportFilesUse[]): PolicyStatement =>
  new PolicyStatement({
    actions: uses.flatMap((use) => REPORT_FILES_ACTIONS[use]),
    resources: [bucket.arnForObjects(`${REPORT_FILES_PREFIX}*`)],
  });

/**
 * The declared uses of the sponsor bank's settlement files, kept in the same bucket under a prefix of
 * their own (shared/data/settlement-files.ts): a report's functions never reach them, nor theirs the reports.
 */
export const settlementFilesStatement = (bucket: IBucket, uses: readonly ReportFilesUse[]): PolicyStatement =>
  new PolicyStatement({
    actions: uses.flatMap((use) => REPORT_FILES_ACTIONS[use]),
    resources: [bucket.arnForObjects(`${SETTLEMENT_FILES_PREFIX}*`)],
  });

export interface ReportBucketProps {
  readonly settings: StageSettings;
  /**
   * The stage's key: the files are decrypted through S3 alone (secret-key-policy.ts), for whoever S3
   * lets read them (the declared report-file rights, and the presigned URLs those roles make).
   */
  readonly key: IKey;
}

export class ReportBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, { settings, key }: ReportBucketProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.KMS,
      encryptionKey: key,
      bucketKeyEnabled: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      lifecycleRules: [
        {
          id: 'ReportFilesExpire',
          expiration: Duration.days(REPORT_FILE_DAYS),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      removalPolicy: removalPolicyOf(settings),
    });
    NagSuppressions.addResourceSuppressions(this.bucket, [
      {
        id: 'AwsSolutions-S1',
        reason:
          'The files are short-lived exports read through presigned URLs that the report get makes for the ' +
          "report's owner, one log line per URL (its request log); server access logs would need a bucket of their own for nothing more.",
      },
    ]);
  }
}

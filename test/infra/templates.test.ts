/**
 * The stack's templates, every stage: one jest file that runs the suites below in one module registry,
 * so each stage is synthesized once (synth.ts keeps it) and loaded with aws-cdk-lib once, instead of
 * once per suite (jest gives every test file a registry of its own). Each suite names its file in its
 * titles. The bundles (bundles.test.ts) and the stage settings (stages.test.ts) stay files of their own.
 */
import './api-stage.suite';
import './audit.suite';
import './contract.suite';
import './edge.suite';
import './dashboard.suite';
import './identity.suite';
import './money.suite';
import './monitoring.suite';
import './nag.suite';
import './network.suite';
import './reports.suite';
import './secret-key.suite';
import './secrets.suite';
import './split.suite';
import './stack.suite';
import './tracing.suite';
import './workers.suite';

/**
 * Cold starts as Powertools counts them: the first invocation of an execution environment that Lambda
 * initialized on demand (AWS_LAMBDA_INITIALIZATION_TYPE). Provisioned-concurrency and SnapStart
 * environments are initialized ahead of any request: none of their invocations waits for a cold start.
 */
export function coldStartTracker(): () => boolean {
  let first = process.env['AWS_LAMBDA_INITIALIZATION_TYPE']?.trim() === 'on-demand';
  return () => {
    const coldStart = first;
    first = false;
    return coldStart;
  };
}

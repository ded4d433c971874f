/**
 * The event Cognito sends a pre-token-generation trigger (version 2) when a person signs in through
 * the hosted page, shaped as AWS documents it: for the trigger's unit test and its bundle's test.
 */
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';

export const DASHBOARD_APP_CLIENT_ID = '4example0dashboard0client0id';

export function signInEvent(userAttributes: Record<string, string>): PreTokenGenerationV2TriggerEvent {
  return {
    version: '2',
    triggerSource: 'TokenGeneration_HostedAuth',
    region: 'us-east-1',
    userPoolId: 'us-east-1_EXAMPLE',
    userName: 'merchant-admin-a',
    callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: DASHBOARD_APP_CLIENT_ID },
    request: {
      userAttributes: {
        sub: 'a1b2c3d4-5678-90ab-cdef-example11111',
        'cognito:user_status': 'CONFIRMED',
        email: 'admin@platform.example',
        ...userAttributes,
      },
      groupConfiguration: { groupsToOverride: [], iamRolesToOverride: [] },
      scopes: ['openid'],
    },
    response: { claimsAndScopeOverrideDetails: {} },
  };
}

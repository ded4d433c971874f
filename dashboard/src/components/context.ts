/** What every page reads: the API (with the person's token), the person, and the stage's settings. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api } from '../api';
import type { DashboardConfig } from '../config';
import { may, type Action } from '../permissions';
import type { Session } from '../sign-in';

export interface DashboardContext {
  readonly api: Api;
  readonly session: Session;
  readonly config: DashboardConfig;
  /** Sends the person to sign in again (an expired token). */
  readonly signIn: () => void;
}

export const Dashboard = createContext<DashboardContext | undefined>(undefined);

export function useDashboard(): DashboardContext {
  const context = useContext(Dashboard);
  if (!context) throw new Error('useDashboard outside the signed-in dashboard');
  return context;
}

/** Whether the signed-in person may do `action`: what they may not is not offered. */
export function useMay(): (action: Action) => boolean {
  const { session } = useDashboard();
  return (action) => may(session.scopes, action);
}

/** A fresh Idempotency-Key: one per action a person starts, reused if they retry it. */
export const newIdempotencyKey = (): string => crypto.randomUUID();

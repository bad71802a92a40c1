import type { Middleware, UnknownAction } from '@reduxjs/toolkit';
import { redactSecrets } from './redact';

const MAX_RECORDED_ACTIONS = 100;

interface Entry {
  action: UnknownAction;
  state: unknown;
  timestamp: number;
}

/** Keeps the recent actions and the state after each (shared references, redacted only when dumped). */
export interface ActionRecorder {
  middleware: Middleware;
  entries(): readonly Entry[];
  /** The state before the oldest recorded action. */
  baseState(): unknown;
}

export function createActionRecorder(limit = MAX_RECORDED_ACTIONS): ActionRecorder {
  const entries: Entry[] = [];
  let base: unknown;
  const middleware: Middleware = (storeApi) => (next) => (action) => {
    if (entries.length === 0 && base === undefined) base = storeApi.getState();
    const result = next(action);
    entries.push({ action: action as UnknownAction, state: storeApi.getState(), timestamp: Date.now() });
    if (entries.length > limit) base = entries.shift()!.state;
    return result;
  };
  return { middleware, entries: () => entries, baseState: () => base };
}

/**
 * The file Redux DevTools' "Import" accepts (an exported lifted state), built from redacted copies only:
 * support staff load it to see the customer's screen and the steps that led there.
 */
export function buildDiagnosticsDump(recorder: ActionRecorder, currentState: unknown): string {
  const entries = recorder.entries();
  const committedState = redactSecrets(recorder.baseState() ?? currentState);
  const actionsById: Record<number, { type: 'PERFORM_ACTION'; action: UnknownAction; timestamp: number }> = {
    0: { type: 'PERFORM_ACTION', action: { type: '@@INIT' }, timestamp: entries[0]?.timestamp ?? Date.now() },
  };
  const computedStates: { state: unknown }[] = [{ state: committedState }];
  entries.forEach((entry, index) => {
    actionsById[index + 1] = { type: 'PERFORM_ACTION', action: redactSecrets(entry.action), timestamp: entry.timestamp };
    computedStates.push({ state: redactSecrets(entry.state) });
  });
  const ids = Object.keys(actionsById).map(Number);
  const liftedState = {
    monitorState: {},
    nextActionId: ids.length,
    actionsById,
    stagedActionIds: ids,
    skippedActionIds: [],
    committedState,
    currentStateIndex: ids.length - 1,
    computedStates,
    isLocked: false,
    isPaused: false,
  };
  return JSON.stringify({ payload: JSON.stringify(liftedState), preloadedState: JSON.stringify(committedState) });
}

/** The state the dump ends in, to build a store that shows what the customer saw. */
export function stateFromDiagnosticsDump(dump: string): unknown {
  const { payload } = JSON.parse(dump) as { payload: string };
  const lifted = JSON.parse(payload) as { computedStates: { state: unknown }[]; currentStateIndex: number };
  return lifted.computedStates[lifted.currentStateIndex].state;
}

export function downloadDiagnostics(recorder: ActionRecorder, currentState: unknown): void {
  const blob = new Blob([buildDiagnosticsDump(recorder, currentState)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `divilo-diagnostics-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

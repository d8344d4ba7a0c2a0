/** What the session clock shows: running (click to pause), paused (click to resume), or over. */
import { formatElapsed } from '../session/actions';

export interface ClockState {
  elapsedMs: number;
  paused: boolean;
  /** Submitted: the clock has stopped for good. */
  ended: boolean;
}

export interface ClockView {
  /** Status bar text (`$(icon)` syntax). */
  text: string;
  tooltip: string;
  /** What a click does; none once the session is over. */
  action?: 'pause' | 'resume';
  /** The side bar's words for the state. */
  state: 'running' | 'paused' | 'submitted';
}

/** `m:ss` (`h:mm:ss` past an hour). */
export function clockTime(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export function clockView(state: ClockState): ClockView {
  const time = clockTime(state.elapsedMs);
  if (state.ended) {
    return { text: `$(pass) ${time} submitted`, tooltip: `Session over: submitted after ${formatElapsed(state.elapsedMs)}. The clock has stopped.`, state: 'submitted' };
  }
  if (state.paused) return { text: `$(debug-pause) ${time} paused`, tooltip: 'Session paused: click to resume', action: 'resume', state: 'paused' };
  return { text: `$(clock) ${time}`, tooltip: 'Session time: click to pause', action: 'pause', state: 'running' };
}

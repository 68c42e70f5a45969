import { create } from 'zustand';
import type { InspectedScreen } from '../../../shared/contract';
import { wordSaid } from '../../../shared/said';
import { BridgeError, type Bridge } from '../bridge';
import { currentWords } from '../i18n/language-store';
import { plainError } from '../lib/errors';

/** What is being inspected: the phone's screen now, or the screen one step of a task saw (as its record keeps it). */
export type InspectTarget = { kind: 'phone'; serial: string } | { kind: 'step'; taskId: string; step: number };

export interface InspectState {
  target: InspectTarget | null;
  screen: InspectedScreen | null;
  reading: boolean;
  /** Why the last read failed, in the window's words. */
  problem: string | null;
  /** The element outlined and described (a Scene id). */
  selectedId: string | null;
  /** A click (on the mirror or in the tree) holds the selection: pointing elsewhere then only moves the outline of the pointer. */
  pinned: boolean;
  /** The element under the pointer on the mirror, outlined apart while the selection is pinned. */
  pointedId: string | null;
  query: string;
}

const CLOSED: InspectState = { target: null, screen: null, reading: false, problem: null, selectedId: null, pinned: false, pointedId: null, query: '' };

export const useInspectStore = create<InspectState>()(() => CLOSED);

/** The error's words in the window's language (main's code when it sent one). */
function problemWords(error: unknown): string {
  if (error instanceof BridgeError && error.rpcError.said) return wordSaid(error.rpcError.message, error.rpcError.said, currentWords());
  return plainError(error);
}

const sameTarget = (a: InspectTarget | null, b: InspectTarget) =>
  a?.kind === b.kind && (a.kind === 'phone' ? b.kind === 'phone' && a.serial === b.serial : b.kind === 'step' && a.taskId === b.taskId && a.step === b.step);

/** Opens Inspect on `target` and reads its Scene (again, for the phone: the screen may have changed). */
export async function inspect(bridge: Bridge, target: InspectTarget): Promise<void> {
  const before = useInspectStore.getState();
  const keep = sameTarget(before.target, target);
  useInspectStore.setState({ target, reading: true, problem: null, ...(keep ? {} : { screen: null, selectedId: null, pinned: false, pointedId: null }) });
  try {
    const screen =
      target.kind === 'phone' ? await bridge.call('inspect.screen', { serial: target.serial }) : await bridge.call('inspect.step', { id: target.taskId, step: target.step });
    if (!sameTarget(useInspectStore.getState().target, target)) return;
    const selected = before.selectedId && screen.scene.elements.some((element) => element.id === before.selectedId) && keep ? before.selectedId : null;
    useInspectStore.setState({ screen, reading: false, selectedId: selected, pinned: selected !== null && before.pinned, pointedId: null });
  } catch (error) {
    if (!sameTarget(useInspectStore.getState().target, target)) return;
    useInspectStore.setState({ reading: false, problem: problemWords(error) });
  }
}

export const closeInspect = (): void => useInspectStore.setState(CLOSED);

/** A click on an element (mirror, box layout or tree): selects it and holds it there. */
export const pinElement = (id: string | null): void => useInspectStore.setState({ selectedId: id, pinned: id !== null });

/** The pointer over an element of the picture: the selection follows it unless a click holds it. */
export const pointAtElement = (id: string | null): void =>
  useInspectStore.setState((state) => (state.pinned ? { pointedId: id } : { pointedId: id, selectedId: id ?? state.selectedId }));

export const setInspectQuery = (query: string): void => useInspectStore.setState({ query });

/** Whether Inspect is on for this phone's live mirror. */
export const inspectsPhone = (serial: string) => (state: InspectState) => state.target?.kind === 'phone' && state.target.serial === serial;

import { z } from 'zod';
import { create } from 'zustand';
import { readStored, writeStored } from '../lib/local-store';

const DRAFT_KEY = 'amc.goalDraft';
const RECENT_KEY = 'amc.recentGoals';
export const RECENT_GOALS_PER_PHONE = 20;
const RecentSchema = z.record(z.string(), z.array(z.string()));

function readDraft(): string {
  try {
    return sessionStorage.getItem(DRAFT_KEY) ?? '';
  } catch {
    return '';
  }
}

export interface GoalState {
  /** The goal as typed, kept for this tab so a reload does not lose it. */
  draft: string;
  /** Goals run on each phone, newest first, by `recentGoalsKey`. */
  recent: Record<string, string[]>;
  setDraft(goal: string): void;
  remember(phone: string, goal: string): void;
  forget(phone: string, goal: string): void;
}

function saveRecent(recent: Record<string, string[]>) {
  writeStored(RECENT_KEY, recent);
  return { recent };
}

export const useGoalStore = create<GoalState>()((set) => ({
  draft: readDraft(),
  recent: readStored(RECENT_KEY, RecentSchema, {}),
  setDraft: (draft) => {
    try {
      sessionStorage.setItem(DRAFT_KEY, draft);
    } catch {
      // Storage can be unavailable (private mode, quota); the goal still works, it just does not survive a reload.
    }
    set({ draft });
  },
  remember: (phone, goal) =>
    set((state) => {
      const others = (state.recent[phone] ?? []).filter((known) => known !== goal);
      return saveRecent({ ...state.recent, [phone]: [goal, ...others].slice(0, RECENT_GOALS_PER_PHONE) });
    }),
  forget: (phone, goal) => set((state) => saveRecent({ ...state.recent, [phone]: (state.recent[phone] ?? []).filter((known) => known !== goal) })),
}));

/**
 * Whose recent goals: a phone's serial, but a demo phone by its name, because it gets a new serial (port) at every
 * start of the app.
 */
export const recentGoalsKey = (phone: { serial: string; name?: string }): string => (phone.name ? `name:${phone.name}` : phone.serial);

const NO_GOALS: string[] = [];
export const recentGoalsOf = (key: string | undefined) => (state: GoalState): string[] => (key ? (state.recent[key] ?? NO_GOALS) : NO_GOALS);

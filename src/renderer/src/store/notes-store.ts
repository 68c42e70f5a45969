import { create } from 'zustand';
import type { NoteListing } from '../../../shared/app-notes';

export interface NotesState {
  /** Every note, newest first, and why the notes file cannot be read (null: it can); null before the first load. */
  listing: NoteListing | null;
  setListing(listing: NoteListing): void;
}

export const useNotesStore = create<NotesState>()((set) => ({
  listing: null,
  setListing: (listing) => set({ listing }),
}));

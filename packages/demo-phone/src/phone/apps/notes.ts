import { APP_PACKAGES, type Note } from '../model';
import { newScreen, type AppDefinition, type AppDialog, type UiContext } from '../ui/app';
import { node, rect, type ViewNode } from '../ui/view';
import { button, dialogWindow, fab, listRow, scrollList, textField, toolbar, TOOLBAR_HEIGHT, W, type ListItem } from '../ui/widgets';

/**
 * Notes: a list and an editor with title and body. The editor's Save button sits at the bottom and does not move
 * for the keyboard, so the keyboard covers it; leaving with unsaved changes asks to discard them.
 */

const PKG = APP_PACKAGES.notes;

function editorScreenFor(notes: Note[], index: number): ReturnType<typeof newScreen> {
  const note = notes[index];
  return newScreen('editor', { index }, note ? { title: note.title, body: note.body } : {});
}

function listScreen(ctx: UiContext): ViewNode[] {
  const { data, nav } = ctx;
  const top = ctx.frame.top + TOOLBAR_HEIGHT;
  const items: ListItem[] = data.notes.map((note, index) => ({
    height: 231,
    build: (bounds) =>
      listRow(ctx, bounds, {
        title: note.title || 'Untitled',
        summary: note.body.replace(/\n/g, ' '),
        titleId: `${PKG}:id/note_title_text`,
        summaryId: `${PKG}:id/note_body_text`,
        onClick: () => nav.push(editorScreenFor(data.notes, index)),
        onLongClick: () => {
          ctx.screen.params = { target: index };
          nav.openDialog('delete');
        },
      }),
  }));
  return [
    toolbar(ctx, { title: 'Notes' }),
    scrollList(ctx, {
      id: 'notes',
      bounds: rect(0, top, W, ctx.frame.bottom),
      items,
      resourceId: `${PKG}:id/notes_list`,
      paddingBottom: 294,
      emptyText: 'No notes yet',
    }),
    fab(ctx, { contentDesc: 'New note', resourceId: `${PKG}:id/add_note`, onClick: () => nav.push(editorScreenFor(data.notes, -1)) }),
  ];
}

function draft(ctx: UiContext): Note {
  return { title: (ctx.screen.fields.title ?? '').trim(), body: (ctx.screen.fields.body ?? '').trim() };
}

function isDirty(ctx: UiContext): boolean {
  const original = ctx.data.notes[Number(ctx.screen.params.index)] ?? { title: '', body: '' };
  const current = draft(ctx);
  return current.title !== original.title.trim() || current.body !== original.body.trim();
}

function editorScreen(ctx: UiContext): ViewNode[] {
  const { data, nav, screen } = ctx;
  const index = Number(screen.params.index);
  const existing = data.notes[index] !== undefined;
  const top = ctx.frame.top + TOOLBAR_HEIGHT;
  const bottom = ctx.frame.bottom;
  const note = draft(ctx);
  const save = (): void => {
    if (existing) data.notes[index] = note;
    else data.notes.push(note);
    nav.pop();
  };
  return [
    toolbar(ctx, {
      title: existing ? 'Edit note' : 'New note',
      nav: { icon: 'back', onClick: () => leaveEditor(ctx) },
      actions: existing ? [{ icon: 'delete', contentDesc: 'Delete note', resourceId: `${PKG}:id/delete_note`, onClick: () => nav.openDialog('delete') }] : [],
    }),
    node('android.widget.LinearLayout', rect(0, top, W, bottom), { resourceId: `${PKG}:id/editor` }, [
      textField(ctx, rect(42, top + 42, W - 42, top + 200), { hint: 'Title', resourceId: `${PKG}:id/note_title`, binding: { id: 'title' } }),
      textField(ctx, rect(42, top + 242, W - 42, bottom - 252), {
        hint: 'Note',
        resourceId: `${PKG}:id/note_body`,
        binding: { id: 'body', multiline: true },
      }),
      button(ctx, rect(63, bottom - 210, W - 63, bottom - 63), {
        text: 'Save',
        resourceId: `${PKG}:id/save_button`,
        enabled: note.title !== '' || note.body !== '',
        onClick: save,
      }),
    ]),
  ];
}

/** BACK or Navigate up in the editor: ask before throwing away changes. */
function leaveEditor(ctx: UiContext): void {
  if (isDirty(ctx)) ctx.nav.openDialog('discard');
  else ctx.nav.pop();
}

function discardDialog(ctx: UiContext): AppDialog {
  const title = 'Discard changes?';
  return {
    title,
    root: dialogWindow(ctx, {
      title,
      message: 'Your changes to this note have not been saved.',
      buttons: [
        { text: 'Keep editing', onClick: () => ctx.nav.closeDialog() },
        { text: 'Discard', onClick: () => ctx.nav.pop() },
      ],
    }),
  };
}

function deleteDialog(ctx: UiContext, index: number): AppDialog {
  const note = ctx.data.notes[index];
  const title = 'Delete note?';
  return {
    title,
    root: dialogWindow(ctx, {
      title,
      message: `"${note?.title || 'Untitled'}" will be deleted.`,
      buttons: [
        { text: 'Cancel', onClick: () => ctx.nav.closeDialog() },
        {
          text: 'Delete',
          onClick: () => {
            ctx.data.notes.splice(index, 1);
            if (ctx.screen.route === 'editor') ctx.nav.pop();
            else ctx.nav.closeDialog();
          },
        },
      ],
    }),
  };
}

export const notesApp: AppDefinition = {
  pkg: PKG,
  label: 'Notes',
  mainActivity: '.NotesActivity',
  icon: { letter: 'N', color: '#F9AB00' },
  rootScreen: () => newScreen('list'),
  build(ctx) {
    const { screen } = ctx;
    const root = (children: ViewNode[]): ViewNode[] => [node('android.widget.FrameLayout', ctx.frame, { resourceId: `${PKG}:id/root` }, children)];
    const dialog =
      screen.dialog === 'discard'
        ? discardDialog(ctx)
        : screen.dialog === 'delete'
          ? deleteDialog(ctx, Number(screen.route === 'editor' ? screen.params.index : screen.params.target))
          : undefined;
    if (screen.route === 'editor') return { activity: '.EditNoteActivity', content: root(editorScreen(ctx)), dialog };
    return { activity: '.NotesActivity', content: root(listScreen(ctx)), dialog };
  },
  onBack(ctx) {
    if (ctx.screen.route !== 'editor' || ctx.screen.dialog) return false;
    leaveEditor(ctx);
    return true;
  },
};

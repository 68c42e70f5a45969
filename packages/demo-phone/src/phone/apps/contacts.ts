import { APP_PACKAGES, type Contact } from '../model';
import { newScreen, type AppDefinition, type AppDialog, type UiContext } from '../ui/app';
import { node, rect, type ViewNode } from '../ui/view';
import {
  button,
  dialogWindow,
  fab,
  FONT,
  listRow,
  scrollList,
  textField,
  textView,
  toolbar,
  TOOLBAR_HEIGHT,
  W,
  type ListItem,
} from '../ui/widgets';
import { avatarFor } from './common';
import { messagesComposeScreen } from './messages';

/** Contacts: a runtime-permission dialog on first open, the contact list, details, and a create form. */

const PKG = APP_PACKAGES.contacts;
export const PERMISSION_CONTROLLER_PACKAGE = 'com.android.permissioncontroller';
const ROW_HEIGHT = 189;

// One collator for every sort: localeCompare with a locale and options builds a new one per comparison.
const NAME_ORDER = new Intl.Collator('en', { sensitivity: 'base' });
const sortedContacts = (contacts: Contact[]): Contact[] => [...contacts].sort((a, b) => NAME_ORDER.compare(a.name, b.name));

function listScreen(ctx: UiContext): ViewNode[] {
  const { data, nav } = ctx;
  const top = ctx.frame.top + TOOLBAR_HEIGHT;
  const children: ViewNode[] = [toolbar(ctx, { title: 'Contacts' })];
  if (data.contactsPermission === 'ask') return children;
  if (data.contactsPermission === 'denied') {
    children.push(
      textView(ctx, rect(84, top + 210, W - 84, top + 400), 'Contacts needs access to your contacts to show them.', {
        align: 'center',
        wrap: true,
        color: ctx.theme.onSurfaceVariant,
        resourceId: `${PKG}:id/message`,
      }),
      button(ctx, rect(W / 2 - 240, top + 441, W / 2 + 240, top + 567), {
        text: 'Allow access',
        resourceId: `${PKG}:id/allow_access`,
        onClick: () => nav.openDialog('permission'),
      }),
    );
    return children;
  }
  const items: ListItem[] = sortedContacts(data.contacts).map((contact) => ({
    height: ROW_HEIGHT,
    build: (bounds) =>
      listRow(ctx, bounds, {
        title: contact.name,
        avatar: avatarFor(contact.name),
        titleId: `${PKG}:id/cliv_name_textview`,
        onClick: () => nav.push(newScreen('details', { index: data.contacts.indexOf(contact) })),
      }),
  }));
  children.push(
    scrollList(ctx, {
      id: 'contacts',
      bounds: rect(0, top, W, ctx.frame.bottom),
      items,
      resourceId: `${PKG}:id/contacts_list`,
      paddingBottom: 294,
      emptyText: 'No contacts',
    }),
    fab(ctx, { contentDesc: 'Create contact', resourceId: `${PKG}:id/floating_action_button`, onClick: () => nav.push(newScreen('editor')) }),
  );
  return children;
}

function detailsScreen(ctx: UiContext, contact: Contact): ViewNode[] {
  const { nav, theme } = ctx;
  const top = ctx.frame.top + TOOLBAR_HEIGHT;
  return [
    toolbar(ctx, {
      title: '',
      nav: { icon: 'back', onClick: () => nav.pop() },
      actions: [{ icon: 'delete', contentDesc: 'Delete', resourceId: `${PKG}:id/menu_delete`, onClick: () => nav.openDialog('delete') }],
    }),
    node('android.widget.ImageView', rect(W / 2 - 168, top + 63, W / 2 + 168, top + 399), {
      resourceId: `${PKG}:id/photo`,
      style: { avatar: avatarFor(contact.name) },
    }),
    textView(ctx, rect(63, top + 441, W - 63, top + 546), contact.name, {
      fontSize: FONT.title + 8,
      align: 'center',
      resourceId: `${PKG}:id/large_title`,
    }),
    node('android.widget.LinearLayout', rect(0, top + 609, W, top + 798), { resourceId: `${PKG}:id/communication_card` }, [
      textView(ctx, rect(84, top + 630, W - 84, top + 700), contact.phone || 'No phone number', { resourceId: `${PKG}:id/header` }),
      textView(ctx, rect(84, top + 706, W - 84, top + 770), 'Mobile', {
        fontSize: FONT.summary,
        color: theme.onSurfaceVariant,
        resourceId: `${PKG}:id/sub_header`,
      }),
    ]),
    button(ctx, rect(84, top + 840, 504, top + 966), {
      text: 'Text',
      variant: 'tonal',
      resourceId: `${PKG}:id/send_message_button`,
      onClick: () => nav.startApp(APP_PACKAGES.messages, messagesComposeScreen(contact.name)),
    }),
  ];
}

function editorScreen(ctx: UiContext): ViewNode[] {
  const { nav, screen, data } = ctx;
  const name = (screen.fields.name ?? '').trim();
  const top = ctx.frame.top + TOOLBAR_HEIGHT;
  const save = (): void => {
    const phone = (screen.fields.phone ?? '').trim();
    data.contacts.push({ name, phone });
    ctx.log({ priority: 'I', tag: 'ContactSaveService', message: `Saving contact: 1 raw contact, ${phone ? 1 : 0} phone number(s)` });
    nav.replace(newScreen('details', { index: data.contacts.length - 1 }));
  };
  return [
    toolbar(ctx, {
      title: 'Create contact',
      nav: { icon: 'close', contentDesc: 'Cancel', onClick: () => nav.pop() },
      actions: [{ text: 'Save', resourceId: `${PKG}:id/editor_menu_save_button`, enabled: name !== '', onClick: save }],
    }),
    node('android.widget.ScrollView', rect(0, top, W, ctx.frame.bottom), { resourceId: `${PKG}:id/editors` }, [
      node('android.widget.LinearLayout', rect(0, top, W, top + 500), {}, [
        textField(ctx, rect(63, top + 63, W - 63, top + 221), {
          hint: 'Name',
          resourceId: `${PKG}:id/editor_name`,
          binding: { id: 'name' },
        }),
        textField(ctx, rect(63, top + 263, W - 63, top + 421), {
          hint: 'Phone',
          resourceId: `${PKG}:id/editor_phone`,
          binding: { id: 'phone', accept: /[0-9+\-() ]/ },
        }),
      ]),
    ]),
  ];
}

function permissionDialog(ctx: UiContext): AppDialog {
  const { data, nav } = ctx;
  const title = 'Allow Contacts to access your contacts?';
  const answer = (granted: boolean): void => {
    data.contactsPermission = granted ? 'granted' : 'denied';
    nav.closeDialog();
  };
  return {
    title,
    pkg: PERMISSION_CONTROLLER_PACKAGE,
    root: dialogWindow(ctx, {
      title,
      titleId: `${PERMISSION_CONTROLLER_PACKAGE}:id/permission_message`,
      buttons: [
        { text: "Don't allow", resourceId: `${PERMISSION_CONTROLLER_PACKAGE}:id/permission_deny_button`, onClick: () => answer(false) },
        { text: 'Allow', resourceId: `${PERMISSION_CONTROLLER_PACKAGE}:id/permission_allow_button`, onClick: () => answer(true) },
      ],
    }),
  };
}

function deleteDialog(ctx: UiContext, contact: Contact): AppDialog {
  const title = 'Delete this contact?';
  return {
    title,
    root: dialogWindow(ctx, {
      title,
      message: `${contact.name} will be removed from this phone.`,
      buttons: [
        { text: 'Cancel', onClick: () => ctx.nav.closeDialog() },
        {
          text: 'Delete',
          onClick: () => {
            ctx.data.contacts.splice(ctx.data.contacts.indexOf(contact), 1);
            ctx.log({ priority: 'I', tag: 'ContactSaveService', message: 'Deleting contact: 1 raw contact' });
            ctx.nav.pop();
          },
        },
      ],
    }),
  };
}

const needsPermissionDialog = (ctx: UiContext): boolean =>
  ctx.screen.route === 'list' && (ctx.data.contactsPermission === 'ask' || ctx.screen.dialog === 'permission');

export const contactsApp: AppDefinition = {
  pkg: PKG,
  label: 'Contacts',
  mainActivity: '.activities.PeopleActivity',
  icon: { letter: 'C', color: '#1A73E8' },
  rootScreen: () => newScreen('list'),
  build(ctx) {
    const { screen, data } = ctx;
    const root = (children: ViewNode[]): ViewNode[] => [
      node('android.view.ViewGroup', ctx.frame, { resourceId: `${PKG}:id/root` }, children),
    ];
    if (screen.route === 'details') {
      const contact = data.contacts[Number(screen.params.index)];
      if (contact) {
        return {
          activity: '.activities.QuickContactActivity',
          content: root(detailsScreen(ctx, contact)),
          dialog: screen.dialog === 'delete' ? deleteDialog(ctx, contact) : undefined,
        };
      }
    }
    if (screen.route === 'editor') return { activity: '.activities.ContactEditorActivity', content: root(editorScreen(ctx)) };
    return {
      activity: '.activities.PeopleActivity',
      content: root(listScreen(ctx)),
      dialog: needsPermissionDialog(ctx) ? permissionDialog(ctx) : undefined,
    };
  },
  onBack(ctx) {
    if (!needsPermissionDialog(ctx)) return false;
    // Dismissing the permission dialog counts as a refusal.
    ctx.data.contactsPermission = 'denied';
    ctx.nav.closeDialog();
    return true;
  },
};

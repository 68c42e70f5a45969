import { APP_PACKAGES, type Conversation, type PhoneData } from '../model';
import { newScreen, type AppDefinition, type Screen, type UiContext } from '../ui/app';
import { wrapText } from '../ui/text-metrics';
import { node, rect, type ViewNode } from '../ui/view';
import {
  fab,
  FONT,
  iconButton,
  listRow,
  scrollList,
  textField,
  toolbar,
  TOOLBAR_HEIGHT,
  usableBottom,
  W,
  type ListItem,
} from '../ui/widgets';
import { avatarFor } from './common';

/** Messages: conversation list, threads, and composing a new message to a recipient. */

const PKG = APP_PACKAGES.messages;
const COMPOSE_BAR_HEIGHT = 189;
const BUBBLE_FONT = FONT.body - 3;
const BUBBLE_MAX_WIDTH = 720;

/** A "new conversation" screen, optionally addressed already (Contacts' Text button opens it). */
export function messagesComposeScreen(recipient = ''): Screen {
  return newScreen('compose', {}, recipient ? { to: recipient } : {});
}

function findConversation(data: PhoneData, name: string): Conversation | undefined {
  const wanted = name.trim().toLowerCase();
  return data.conversations.find((conversation) => conversation.with.toLowerCase() === wanted);
}

/** A typed recipient that matches a contact's name or number becomes that contact. */
function resolveRecipient(data: PhoneData, typed: string): string {
  const wanted = typed.trim().toLowerCase();
  const digits = (value: string): string => value.replace(/[^0-9+]/g, '');
  const contact = data.contacts.find(
    (candidate) => candidate.name.toLowerCase() === wanted || (digits(candidate.phone) !== '' && digits(candidate.phone) === digits(typed)),
  );
  return contact?.name ?? typed.trim();
}

function send(ctx: UiContext, recipient: string, body: string): void {
  const { data } = ctx;
  let conversation = findConversation(data, recipient);
  if (!conversation) {
    conversation = { with: recipient, messages: [] };
    data.conversations.unshift(conversation);
  } else {
    data.conversations.splice(data.conversations.indexOf(conversation), 1);
    data.conversations.unshift(conversation);
  }
  conversation.messages.push({ from: 'me', body });
  data.sent.push({ to: conversation.with, body });
  // Like AOSP Messaging, the log names neither the recipient nor the text.
  ctx.log({ priority: 'I', tag: 'MessagingAppDataModel', message: `InsertNewMessageAction: inserted outgoing message, ${body.length} chars` });
  ctx.log({ priority: 'I', tag: 'MessagingApp', message: `SmsSender: sending SMS to 1 recipient, ${Math.ceil(body.length / 160)} part(s)` });
}

function listScreen(ctx: UiContext): ViewNode[] {
  const { data, nav } = ctx;
  const top = ctx.frame.top + TOOLBAR_HEIGHT;
  const items: ListItem[] = data.conversations.map((conversation) => {
    const last = conversation.messages[conversation.messages.length - 1];
    const snippet = last ? `${last.from === 'me' ? 'You: ' : ''}${last.body.replace(/\n/g, ' ')}` : '';
    return {
      height: 210,
      build: (bounds) =>
        listRow(ctx, bounds, {
          title: conversation.with,
          summary: snippet,
          avatar: avatarFor(conversation.with),
          titleId: `${PKG}:id/conversation_name`,
          summaryId: `${PKG}:id/conversation_snippet`,
          onClick: () => nav.push(newScreen('thread', { with: conversation.with })),
        }),
    };
  });
  return [
    toolbar(ctx, { title: 'Messages' }),
    scrollList(ctx, {
      id: 'conversations',
      bounds: rect(0, top, W, ctx.frame.bottom),
      items,
      resourceId: `${PKG}:id/conversation_list`,
      paddingBottom: 294,
      emptyText: 'No conversations yet',
    }),
    fab(ctx, { contentDesc: 'Start chat', text: 'Start chat', resourceId: `${PKG}:id/start_new_conversation_button`, onClick: () => nav.push(messagesComposeScreen()) }),
  ];
}

function bubbles(ctx: UiContext, conversation: Conversation | undefined, bounds: ViewNode['bounds']): ViewNode {
  const { theme } = ctx;
  const items: ListItem[] = (conversation?.messages ?? []).map((message) => {
    const lines = wrapText(message.body, BUBBLE_MAX_WIDTH - 84, BUBBLE_FONT);
    const height = lines.length * 58 + 63 + 32;
    const mine = message.from === 'me';
    return {
      height,
      build: (row) => {
        const width = Math.min(BUBBLE_MAX_WIDTH, Math.max(...lines.map((line) => line.length * BUBBLE_FONT * 0.53)) + 84 + 10);
        const left = mine ? W - 42 - width : 42;
        const bubble = rect(left, row.top + 16, left + width, row.bottom - 16);
        return node('android.widget.LinearLayout', row, { resourceId: `${PKG}:id/message_content` }, [
          node('android.widget.TextView', bubble, {
            text: message.body,
            resourceId: `${PKG}:id/message_text`,
            style: {
              background: mine ? theme.primary : theme.surfaceHigh,
              radius: 42,
              textColor: mine ? theme.onPrimary : theme.onSurface,
              fontSize: BUBBLE_FONT,
              paddingLeft: 42,
              textTop: 32,
              wrap: true,
            },
          }),
        ]);
      },
    };
  });
  return scrollList(ctx, { id: 'thread', bounds, items, resourceId: `${PKG}:id/message_list`, startAtEnd: true });
}

function composeBar(ctx: UiContext, bottom: number, canSend: boolean, onSend: () => void): ViewNode {
  const top = bottom - COMPOSE_BAR_HEIGHT;
  return node('android.widget.LinearLayout', rect(0, top, W, bottom), {
    resourceId: `${PKG}:id/message_compose_view_container`,
    style: { background: ctx.theme.surfaceContainer },
  }, [
    textField(ctx, rect(42, top + 21, W - 189, bottom - 21), {
      hint: 'Text message',
      resourceId: `${PKG}:id/compose_message_text`,
      binding: { id: 'body' },
    }),
    iconButton(ctx, rect(W - 168, top + 21, W - 42, bottom - 21), {
      icon: 'send',
      contentDesc: 'Send SMS',
      resourceId: `${PKG}:id/send_message_button`,
      enabled: canSend,
      color: ctx.theme.primary,
      onClick: onSend,
    }),
  ]);
}

function threadScreen(ctx: UiContext, name: string): ViewNode[] {
  const { nav, screen } = ctx;
  const conversation = findConversation(ctx.data, name);
  const top = ctx.frame.top + TOOLBAR_HEIGHT;
  const bottom = usableBottom(ctx);
  const body = screen.fields.body ?? '';
  return [
    toolbar(ctx, { title: name, nav: { icon: 'back', onClick: () => nav.pop() } }),
    bubbles(ctx, conversation, rect(0, top, W, bottom - COMPOSE_BAR_HEIGHT)),
    composeBar(ctx, bottom, body.trim() !== '', () => {
      send(ctx, name, body.trim());
      nav.setField('body', '');
    }),
  ];
}

function composeScreen(ctx: UiContext): ViewNode[] {
  const { nav, screen, data } = ctx;
  const top = ctx.frame.top + TOOLBAR_HEIGHT;
  const bottom = usableBottom(ctx);
  const to = screen.fields.to ?? '';
  const body = screen.fields.body ?? '';
  const query = to.trim().toLowerCase();
  const suggestions = data.contacts.filter((contact) => query === '' || contact.name.toLowerCase().includes(query));
  const items: ListItem[] = suggestions.map((contact) => ({
    height: 189,
    build: (bounds) =>
      listRow(ctx, bounds, {
        title: contact.name,
        summary: contact.phone,
        avatar: avatarFor(contact.name),
        onClick: () => nav.setField('to', contact.name),
      }),
  }));
  return [
    toolbar(ctx, { title: 'New conversation', nav: { icon: 'back', onClick: () => nav.pop() } }),
    textField(ctx, rect(42, top + 21, W - 42, top + 179), {
      hint: 'Type a name, phone number, or email',
      resourceId: `${PKG}:id/recipient_text_view`,
      binding: { id: 'to' },
    }),
    scrollList(ctx, { id: 'suggestions', bounds: rect(0, top + 200, W, bottom - COMPOSE_BAR_HEIGHT), items, resourceId: `${PKG}:id/contact_list` }),
    composeBar(ctx, bottom, to.trim() !== '' && body.trim() !== '', () => {
      const recipient = resolveRecipient(data, to);
      send(ctx, recipient, body.trim());
      nav.replace(newScreen('thread', { with: recipient }));
    }),
  ];
}

export const messagesApp: AppDefinition = {
  pkg: PKG,
  label: 'Messages',
  mainActivity: '.ui.conversationlist.ConversationListActivity',
  icon: { letter: 'M', color: '#188038' },
  rootScreen: () => newScreen('list'),
  build(ctx) {
    const { screen } = ctx;
    const root = (children: ViewNode[]): ViewNode[] => [node('android.view.ViewGroup', ctx.frame, { resourceId: `${PKG}:id/root` }, children)];
    if (screen.route === 'thread') return { activity: '.ui.conversation.ConversationActivity', content: root(threadScreen(ctx, String(screen.params.with))) };
    if (screen.route === 'compose') return { activity: '.ui.conversation.ConversationActivity', content: root(composeScreen(ctx)) };
    return { activity: '.ui.conversationlist.ConversationListActivity', content: root(listScreen(ctx)) };
  },
};


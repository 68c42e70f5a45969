import { z } from 'zod';

/** The phone's user data and settings: what tasks change and validators read. */

export const ContactSchema = z.object({ name: z.string().min(1), phone: z.string() }).strict();
export const AlarmSchema = z
  .object({
    hour: z.number().int().min(0).max(23),
    minute: z.number().int().min(0).max(59),
    enabled: z.boolean().default(true),
  })
  .strict();
export const NoteSchema = z.object({ title: z.string(), body: z.string() }).strict();
export const ChatMessageSchema = z.object({ from: z.enum(['me', 'them']), body: z.string() }).strict();
export const ConversationSchema = z.object({ with: z.string().min(1), messages: z.array(ChatMessageSchema) }).strict();
export const SettingsSchema = z
  .object({ wifi: z.boolean(), mobileData: z.boolean(), bluetooth: z.boolean(), darkTheme: z.boolean(), airplaneMode: z.boolean() })
  .strict();
export const ContactsPermissionSchema = z.enum(['ask', 'granted', 'denied']);

export const APP_PACKAGES = {
  launcher: 'com.android.launcher3',
  settings: 'com.android.settings',
  contacts: 'com.android.contacts',
  clock: 'com.android.deskclock',
  notes: 'com.amc.notes',
  messages: 'com.android.messaging',
  browser: 'com.android.chrome',
} as const;
/** The apps a person opens from the launcher, and so the apps a seed may open (`foreground`). */
export const USER_APP_PACKAGES = [
  APP_PACKAGES.settings,
  APP_PACKAGES.contacts,
  APP_PACKAGES.clock,
  APP_PACKAGES.notes,
  APP_PACKAGES.messages,
  APP_PACKAGES.browser,
] as const;

/**
 * A seed presets the phone after `reset(seed)`. Every field is optional; a missing field takes the default
 * below. Unknown fields are rejected so a typo in a task seed fails loudly.
 */
export const PhoneSeedSchema = z
  .object({
    settings: SettingsSchema.partial().optional(),
    contacts: z.array(ContactSchema).optional(),
    /** `ask`: the permission dialog shows on the next open of Contacts. */
    contactsPermission: ContactsPermissionSchema.optional(),
    alarms: z.array(AlarmSchema).optional(),
    notes: z.array(NoteSchema).optional(),
    conversations: z.array(ConversationSchema).optional(),
    /** Whether the ADBKeyBoard IME (com.android.adbkeyboard/.AdbIME) is installed. */
    adbKeyboard: z.boolean().optional(),
    /** Whether yadb runs when pushed (false: it fails as on ROMs that block its input injection). */
    yadb: z.boolean().optional(),
    /** A PIN the lock screen asks for (4 to 16 digits); without one a swipe up unlocks the phone. */
    lockPin: z.string().regex(/^[0-9]{4,16}$/, 'a PIN is 4 to 16 digits').optional(),
    /** A user app package to open after the reset (default: the home screen). */
    foreground: z.enum(USER_APP_PACKAGES).optional(),
  })
  .strict();

export type PhoneSeed = z.input<typeof PhoneSeedSchema>;
export type Contact = z.infer<typeof ContactSchema>;
export type Alarm = z.infer<typeof AlarmSchema>;
export type Note = z.infer<typeof NoteSchema>;
export type Conversation = z.infer<typeof ConversationSchema>;
export type PhoneSettings = z.infer<typeof SettingsSchema>;
export type ContactsPermission = z.infer<typeof ContactsPermissionSchema>;

export interface SentMessage {
  to: string;
  body: string;
}

/** Mutable user data of the phone. */
export interface PhoneData {
  settings: PhoneSettings;
  contacts: Contact[];
  contactsPermission: ContactsPermission;
  alarms: Alarm[];
  notes: Note[];
  conversations: Conversation[];
  sent: SentMessage[];
  adbKeyboardInstalled: boolean;
  yadbSupported: boolean;
  /** The lock screen's PIN, when one is set. */
  lockPin: string | undefined;
}

export const DEFAULT_SEED = {
  settings: { wifi: true, mobileData: true, bluetooth: false, darkTheme: false, airplaneMode: false },
  contacts: [
    { name: 'Alice Johnson', phone: '+1 555-0101' },
    { name: 'Bob Smith', phone: '+1 555-0102' },
    { name: 'Carol Williams', phone: '+1 555-0103' },
  ],
  contactsPermission: 'ask',
  alarms: [
    { hour: 7, minute: 0, enabled: true },
    { hour: 8, minute: 30, enabled: false },
  ],
  notes: [
    { title: 'Shopping list', body: 'Milk, eggs, bread' },
    { title: 'Ideas', body: 'Learn to play the guitar' },
  ],
  conversations: [
    {
      with: 'Alice Johnson',
      messages: [
        { from: 'them', body: 'Are we still on for lunch tomorrow?' },
        { from: 'me', body: 'Yes, see you at noon!' },
      ],
    },
    { with: 'Bob Smith', messages: [{ from: 'them', body: 'Can you send me the report?' }] },
  ],
  adbKeyboard: true,
} satisfies PhoneSeed;

/** Parses a seed (unknown input, e.g. a POST body) into fresh phone data. Throws a readable Error when invalid. */
export function dataFromSeed(seed: unknown): { data: PhoneData; foreground: string | undefined } {
  const parsed = PhoneSeedSchema.safeParse(seed ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(seed)'}: ${issue.message}`);
    throw new Error(`Invalid phone seed: ${problems.join('; ')}`);
  }
  const value = parsed.data;
  const defaults = structuredClone(DEFAULT_SEED);
  return {
    data: {
      settings: { ...defaults.settings, ...value.settings },
      contacts: structuredClone(value.contacts ?? defaults.contacts),
      contactsPermission: value.contactsPermission ?? defaults.contactsPermission,
      alarms: structuredClone(value.alarms ?? defaults.alarms),
      notes: structuredClone(value.notes ?? defaults.notes),
      conversations: structuredClone(value.conversations ?? defaults.conversations),
      sent: [],
      adbKeyboardInstalled: value.adbKeyboard ?? defaults.adbKeyboard,
      yadbSupported: value.yadb ?? true,
      lockPin: value.lockPin,
    },
    foreground: value.foreground,
  };
}

/** What `GET /state` returns: a JSON snapshot of the phone. */
export interface PhoneState {
  /** Package of the foreground app (the launcher when on the home screen). */
  foreground: string;
  /** Resumed activity, e.g. `com.android.settings/.Settings`. */
  activity: string;
  screenOn: boolean;
  /** The lock screen is up (the power key locks; a swipe up, or the PIN, unlocks). */
  locked: boolean;
  /** The notification shade is pulled down. */
  shadeExpanded: boolean;
  keyboardShown: boolean;
  /** resource-id of the focused text field, or null. */
  focusedField: string | null;
  /** Title of the dialog on top (app or system), or null. */
  dialog: string | null;
  settings: PhoneSettings;
  contactsPermission: ContactsPermission;
  contacts: Contact[];
  alarms: Alarm[];
  notes: Note[];
  messages: { sent: SentMessage[]; conversations: Conversation[] };
  ime: { current: string; adbKeyboardInstalled: boolean };
  browser: BrowserState;
  profile: 'instant' | 'realistic';
}

/** The browser's page: its address (null on the new-tab page, or with no browser open) and its title when it loaded (null when it could not). */
export interface BrowserState {
  url: string | null;
  title: string | null;
}

/** The former name of `PhoneState`. */
export type PhoneStateView = PhoneState;

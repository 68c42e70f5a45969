import type { AppDefinition } from '../ui/app';
import { browserApp } from './browser';
import { clockApp } from './clock';
import { contactsApp } from './contacts';
import { messagesApp } from './messages';
import { notesApp } from './notes';
import { settingsApp } from './settings';

/** The user apps in launcher order (4 icons per row). */
export const USER_APPS: readonly AppDefinition[] = [settingsApp, contactsApp, clockApp, notesApp, messagesApp, browserApp];

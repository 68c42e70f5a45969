import { SETTING_SECTIONS, SETTINGS_CATALOG, type Presentation } from '../../../settings-catalog';

/**
 * The Settings form's words in English, taken from the settings catalog (src/shared/settings-catalog.ts), where
 * every setting is declared once: `section.<name>`, and `field.<group>.<key>.<label|help|…>` per setting.
 */
type FieldWords = Partial<Record<'label' | 'help' | 'helpOn' | 'unit' | 'placeholder' | 'whenEmpty', string>> & {
  choice?: Record<string, string>;
  helpFor?: Record<string, string>;
};

const WORD_KEYS = ['label', 'help', 'helpOn', 'unit', 'placeholder', 'whenEmpty'] as const;

function wordsOf(entry: (typeof SETTINGS_CATALOG)[number]): FieldWords {
  const shown: Presentation = entry;
  const words: FieldWords = {};
  for (const key of WORD_KEYS) if (shown[key]) words[key] = shown[key];
  if (entry.kind === 'choice') {
    words.choice = { ...entry.choiceLabels };
    if (entry.helpPerChoice) words.helpFor = { ...(entry.helpPerChoice as Record<string, string>) };
  }
  return words;
}

const field: Record<string, Record<string, FieldWords>> = {};
for (const entry of SETTINGS_CATALOG) (field[entry.group] ??= {})[entry.key] = wordsOf(entry);

export default {
  section: Object.fromEntries(SETTING_SECTIONS.map((section) => [section, section])) as Record<string, string>,
  field,
};

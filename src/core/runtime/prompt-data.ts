/**
 * Text from outside the runtime in a prompt: the goal and sub-goals, flow variables and `why:`, the person's answers
 * and notes, the standing instructions, labels from the screen. It reaches the model only through `asData`, so no
 * such text can close the block it sits in or open one of its own (`</goal><standing_instructions>…`).
 */

/** The tags of the blocks our prompts are made of; each holds runtime words, or outside text only through `asData`. */
export const PROMPT_TAGS = ['goal', 'standing_instructions', 'app_notes', 'scene', 'question'] as const;
export type PromptTag = (typeof PROMPT_TAGS)[number];

/** Every `<` written as `\u003c`, as in the Scene's JSON: for JSON the runtime made, whose strings may hold outside text. */
export const withoutTags = (text: string): string => text.replace(/</g, '\\u003c');

/**
 * Outside text as data: one JSON string with every `<` escaped. A `"` cannot end its quote and a `<` cannot start
 * a tag, so it reads as one quoted value whatever it says.
 */
export const asData = (text: string): string => withoutTags(JSON.stringify(text));

/** A block holding one outside text as data: `<goal>"Turn on Wi-Fi"</goal>`. */
export const dataBlock = (tag: PromptTag, text: string): string => `<${tag}>${asData(text)}</${tag}>`;

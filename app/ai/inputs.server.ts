import { z } from "zod";
import { formatNumber } from "~/common/i18n/formats";
import { interpolate, msg } from "~/common/i18n/translate";
import { MESSAGE_MAX } from "./chat/chat.server";
import { PROMPT_MAX } from "./image/image.server";
import { DEFAULT_SKETCH_STYLE, SKETCH_STYLES } from "~/common/media/sketch-styles";
import { SPEECH_TEXT_MAX } from "~/common/assistant/speech-text";

/**
 * The problems a screen may show as well (the image screen's prompt): catalogue templates, said in
 * English by the API (`interpolate`) and in the screen's language by screenText(t, text, INPUT_TEMPLATES).
 */
export const FIELD_REQUIRED = msg("{{field}} is required");
export const FIELD_NOT_TEXT = msg("{{field}} must be text");
export const FIELD_TOO_LONG = msg("{{field}} must be at most {{max}} characters");
export const INPUT_TEMPLATES = [FIELD_REQUIRED, FIELD_NOT_TEXT, FIELD_TOO_LONG] as const;
export const UNKNOWN_VOICE_TEXT = msg("Unknown voice");

/** The AI calls' inputs (docs/api.md#entities-and-payloads), validated with zod; the routes answer 422 with the first problem. */
const requiredText = (field: string, max: number) =>
  z
    .string({
      error: (issue) =>
        interpolate(issue.input === undefined || issue.input === null ? FIELD_REQUIRED : FIELD_NOT_TEXT, { field }),
    })
    .trim()
    .min(1, interpolate(FIELD_REQUIRED, { field }))
    .max(max, interpolate(FIELD_TOO_LONG, { field, max: formatNumber("en", max) }));

export const assistantMessageSchema = z.object({ message: requiredText("message", MESSAGE_MAX) });

export const promptSchema = z.object({ prompt: requiredText("prompt", PROMPT_MAX) });

/** voice_id may be left out (or empty): the provider's first voice speaks. */
export const voiceGenerateSchema = z.object({
  text: requiredText("text", SPEECH_TEXT_MAX),
  voice_id: z.string({ error: "voice_id must be text" }).trim().max(200, UNKNOWN_VOICE_TEXT).optional(),
});

export const creativeVoiceSchema = z.object({ text: requiredText("text", SPEECH_TEXT_MAX) });

export const sketchSchema = z.object({
  image_data: z.string({
    error: (issue) => (issue.input === undefined ? "image_data is required" : "image_data must be a PNG data URL"),
  }),
  style: z
    .enum(SKETCH_STYLES, { error: `style must be one of: ${SKETCH_STYLES.join(", ")}` })
    .optional()
    .transform((style) => style ?? DEFAULT_SKETCH_STYLE),
});

import { z } from "zod";
import { MESSAGE_MAX } from "./chat/chat.server";
import { PROMPT_MAX } from "./image/image.server";
import { DEFAULT_SKETCH_STYLE, SKETCH_STYLES } from "~/common/media/sketch-styles";
import { SPEECH_TEXT_MAX } from "~/common/assistant/speech-text";

/** The AI calls' inputs (docs/api.md#entities-and-payloads), validated with zod; the routes answer 422 with the first problem. */
const requiredText = (field: string, max: number) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null ? `${field} is required` : `${field} must be text`,
    })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max.toLocaleString("en-US")} characters`);

export const assistantMessageSchema = z.object({ message: requiredText("message", MESSAGE_MAX) });

export const promptSchema = z.object({ prompt: requiredText("prompt", PROMPT_MAX) });

/** voice_id may be left out (or empty): the provider's first voice speaks. */
export const voiceGenerateSchema = z.object({
  text: requiredText("text", SPEECH_TEXT_MAX),
  voice_id: z.string({ error: "voice_id must be text" }).trim().max(200, "Unknown voice").optional(),
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

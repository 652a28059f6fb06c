import { providerErrorResponse } from "~/ai/errors.server";
import { creativeVoiceSchema, promptSchema } from "~/ai/inputs.server";
import { askAssistant } from "~/services/assistant.server";
import { generateImage, speak } from "~/services/generation.server";
import { submitVideoJob } from "~/services/video-job-runner.server";
import { requireApiUser } from "~/auth/auth.server";
import { apiError, parseApiInput, readJsonBody } from "~/lib/http.server";
import { VideoJobLimitError, videoPromptSchema } from "~/models/video-job.server";
import type { Route } from "./+types/creative-tools.generate";

/**
 * POST /api/creative-tools/{tool}/generate (SPEC §7), one door to each generator:
 * - assistant {prompt} -> {text, provider}
 * - voice {text} -> {audio_url, url, media_id, filename} (the first voice)
 * - image {prompt} -> {image_url, url, media_id, filename}; 503 when no image model is configured
 * - aivideo {prompt} -> 202 {id, status, status_url, video_url: null, url: null}: a job to follow;
 *   429 while the person already has VIDEO_MAX_ACTIVE_JOBS unfinished jobs
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed", { Allow: "POST" });
  const user = await requireApiUser(context, request);
  const tool = params.tool;
  if (tool !== "assistant" && tool !== "voice" && tool !== "image" && tool !== "aivideo") return apiError(404, "Unknown creative tool");
  const body = await readJsonBody(request);

  if (tool === "assistant") {
    const { prompt } = parseApiInput(promptSchema, body);
    try {
      const answer = await askAssistant(user.id, prompt, request.signal);
      return Response.json({ text: answer.reply, provider: answer.provider });
    } catch (error) {
      return providerErrorResponse(error, "chat");
    }
  }
  if (tool === "voice") {
    const { text } = parseApiInput(creativeVoiceSchema, body);
    try {
      const spoken = await speak(user.id, text, undefined, request.signal);
      return Response.json(
        { audio_url: spoken.url, url: spoken.url, media_id: spoken.media_id, filename: spoken.filename, voice_id: spoken.voice_id },
        { status: 201 },
      );
    } catch (error) {
      return providerErrorResponse(error, "speech");
    }
  }
  if (tool === "image") {
    const { prompt } = parseApiInput(promptSchema, body);
    try {
      const image = await generateImage(user.id, prompt, request.signal);
      return Response.json(
        { image_url: image.url, url: image.url, media_id: image.media_id, filename: image.filename, provider: image.provider },
        { status: 201 },
      );
    } catch (error) {
      return providerErrorResponse(error, "image");
    }
  }
  const { prompt } = parseApiInput(videoPromptSchema, body);
  let job;
  try {
    job = await submitVideoJob(user.id, prompt);
  } catch (error) {
    if (error instanceof VideoJobLimitError) return apiError(429, error.message);
    throw error;
  }
  const statusUrl = `/api/aivideo/status/${encodeURIComponent(job.id)}`;
  return Response.json(
    { id: job.id, status: job.status, progress: job.progress, status_url: statusUrl, video_url: null, url: null },
    { status: 202, headers: { Location: statusUrl } },
  );
}

export const loader = () => apiError(405, "Method not allowed", { Allow: "POST" });

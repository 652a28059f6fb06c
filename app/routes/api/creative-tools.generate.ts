import { creativeVoiceSchema, promptSchema } from "~/ai/inputs.server";
import { askAssistant } from "~/services/assistant/assistant.server";
import { imageOrStockPhoto, speak } from "~/services/media/generation.server";
import { submitVideoJob } from "~/services/video-jobs/video-job-runner.server";
import { requireApiUser } from "~/auth/auth.server";
import { z } from "zod";
import { DomainError } from "~/lib/domain-error";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { getProject, projectNotFound } from "~/models/projects/project.server";
import { videoPromptSchema } from "~/models/video-jobs/video-job.server";
import type { ProvenanceSource } from "~/common/media/library-rules";
import type { Route } from "./+types/creative-tools.generate";

/**
 * POST /api/creative-tools/{tool}/generate (docs/api.md#every-call), one door to each generator:
 * - assistant {prompt} -> {text, provider}
 * - voice {text} -> {audio_url, url, media_id, filename} (the first voice)
 * - image {prompt} -> 201 {image_url, url, media_id, filename, provider}; with no image model configured,
 *   200 {image_url, url, provider: "stock-photo"}: the stock-photo link in docs/screens.md (the image screen's)
 * - aivideo {prompt} -> 202 {id, status, status_url, video_url: null, url: null}: a job to follow;
 *   429 while the person already has VIDEO_MAX_ACTIVE_JOBS unfinished jobs
 * A provider failure answers the text in docs/screens.md#error-messages with 502/503/504.
 * Voice and image take an optional project_id (the project editor's generators send it): the file's
 * provenance then names that project as its source; a project that is not the person's is 404.
 */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const tool = params.tool;
  if (tool !== "assistant" && tool !== "voice" && tool !== "image" && tool !== "aivideo")
    throw new DomainError(404, "Unknown creative tool");
  const body = await readJsonBody(request);

  if (tool === "assistant") {
    const { prompt } = parseInput(promptSchema, body);
    const answer = await askAssistant(user.id, prompt, request.signal);
    return Response.json({ text: answer.reply, provider: answer.provider });
  }
  if (tool === "voice") {
    const { text } = parseInput(creativeVoiceSchema, body);
    const spoken = await speak(user.id, text, undefined, request.signal, await projectSource(user.id, body));
    return Response.json(
      {
        audio_url: spoken.url,
        url: spoken.url,
        media_id: spoken.media_id,
        filename: spoken.filename,
        voice_id: spoken.voice_id,
      },
      { status: 201 },
    );
  }
  if (tool === "image") {
    const { prompt } = parseInput(promptSchema, body);
    const image = await imageOrStockPhoto(user.id, prompt, request.signal, await projectSource(user.id, body));
    // No image model: the stock-photo link, as the image screen builds it (nothing was made or stored).
    if (image.stockPhoto) return Response.json({ image_url: image.url, url: image.url, provider: image.provider });
    return Response.json(
      {
        image_url: image.url,
        url: image.url,
        media_id: image.media_id,
        filename: image.filename,
        provider: image.provider,
      },
      { status: 201 },
    );
  }
  const { prompt } = parseInput(videoPromptSchema, body);
  const job = await submitVideoJob(user.id, prompt);
  const statusUrl = `/api/aivideo/status/${encodeURIComponent(job.id)}`;
  return Response.json(
    { id: job.id, status: job.status, progress: job.progress, status_url: statusUrl, video_url: null, url: null },
    { status: 202, headers: { Location: statusUrl } },
  );
});

export const loader = refuseMethod("POST");

const projectIdSchema = z.object({
  project_id: z.string({ error: "project_id must be text" }).trim().min(1).max(100).optional(),
});

/** The project a generation was made for, when the request names one of the person's projects. */
async function projectSource(userId: string, body: unknown): Promise<ProvenanceSource | undefined> {
  const { project_id: projectId } = parseInput(projectIdSchema, body);
  if (projectId === undefined) return undefined;
  if (!(await getProject(userId, projectId))) throw projectNotFound();
  return { type: "project", id: projectId };
}

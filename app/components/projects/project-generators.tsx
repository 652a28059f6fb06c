import { useState } from "react";
import {
  generateImageFile,
  generateScript,
  generateVoiceFile,
  startVideoGeneration,
  videoStatus,
  type GeneratedFile,
} from "~/browser/ai-client";
import {
  AttachButton,
  Generator,
  GeneratorOutcome,
  PromptForm,
  useGenerator,
} from "~/components/media/generator-parts";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import { MusicPicker } from "~/components/media/music-picker";
import { isFinished, VIDEO_POLL_MS, videoStatusText } from "~/browser/video-status";
import type { ProjectSlot } from "~/common/project-rules";
import { formatPercent } from "~/common/i18n/formats";

/** A file a generator made (or a bundled track), as the editor's media choices list it. */
export interface GeneratedChoice {
  id: string;
  name: string;
  kind: string;
}

interface GeneratorsProps {
  hydrated: boolean;
  imageConfigured: boolean;
  assistantOffline: boolean;
  /** With JavaScript: a bundled track chosen in the Music generator becomes the Media group's music. */
  onMusic?: (trackId: string) => void;
  onScript: (script: string) => void;
  onAttach: (slot: ProjectSlot, choice: GeneratedChoice) => void;
  /** The stored project's id (none while it is new): generated files name it as their source. */
  projectId?: string;
}

/**
 * docs/screens.md#project-editor: collapsible generators Script, Voice, Music (coming soon: the three
 * demo tracks), Image and Video, each its own <details> that opens with one click (without
 * JavaScript too). Script, Voice, Image and Video call the creative-tools API through the browser
 * API client, so they need JavaScript; each ignores empty input and says "{kind} generated
 * successfully!" or "Failed to generate {kind}" (docs/screens.md#error-messages), and its result can
 * be attached to the project. The project's music is chosen in the form's Media group.
 */
export function ProjectGenerators({
  hydrated,
  imageConfigured,
  assistantOffline,
  onMusic,
  onScript,
  onAttach,
  projectId,
}: GeneratorsProps) {
  const { t } = useT();
  return (
    <section className="card project-generators" aria-labelledby="generators-title" data-testid="generators">
      <h2 id="generators-title" className="generators-title">
        <Icon name="sparkles" />
        {t("Generators")}
      </h2>
      <noscript>
        <p className="message message-error requires-javascript">
          {t(
            "The generators run in your browser and need JavaScript. The music tracks and the form beside them work without it.",
          )}
        </p>
      </noscript>
      {hydrated ? <ScriptGenerator offline={assistantOffline} onScript={onScript} /> : null}
      {hydrated ? <VoiceGenerator onAttach={onAttach} projectId={projectId} /> : null}
      <MusicPicker onUse={onMusic} />
      {hydrated ? (
        <>
          <ImageGenerator configured={imageConfigured} onAttach={onAttach} projectId={projectId} />
          <VideoGenerator onAttach={onAttach} />
        </>
      ) : null}
    </section>
  );
}

function ScriptGenerator({ offline, onScript }: { offline: boolean; onScript: (script: string) => void }) {
  const { t } = useT();
  const [prompt, setPrompt] = useState("");
  const { busy, result, outcome, run } = useGenerator<string>("Script");
  return (
    <Generator title={t("Script")} icon="pen-line" testId="generator-script">
      {offline ? (
        <p className="muted">
          {t(
            "The offline assistant writes from your own content and the studio's guide; configure an AI model (AI_CHAT_MODEL) for free-form scripts.",
          )}
        </p>
      ) : null}
      <PromptForm
        label={t("What is the script about?")}
        value={prompt}
        onChange={setPrompt}
        busy={busy}
        busyLabel={t("Generating...")}
        action={{ label: t("Generate Script"), run: () => void run(prompt, generateScript) }}
      />
      <GeneratorOutcome outcome={outcome} />
      {result ? (
        <div className="generator-result">
          <div className="generator-text" data-testid="script-result">
            {result}
          </div>
          <button type="button" className="button" onClick={() => onScript(result)}>
            {t("Add to description")}
          </button>
        </div>
      ) : null}
    </Generator>
  );
}

const choiceOf = (file: GeneratedFile, kind: string): GeneratedChoice => ({
  id: file.media_id,
  name: file.filename,
  kind,
});

function VoiceGenerator({ onAttach, projectId }: { onAttach: GeneratorsProps["onAttach"]; projectId?: string }) {
  const { t } = useT();
  const [text, setText] = useState("");
  const { busy, result, outcome, run } = useGenerator<GeneratedFile>("Voice");
  return (
    <Generator title={t("Voice")} icon="mic" testId="generator-voice">
      <PromptForm
        label={t("Text to speak")}
        value={text}
        onChange={setText}
        busy={busy}
        busyLabel={t("Generating...")}
        action={{
          label: t("Generate Voice"),
          run: () => void run(text, (input) => generateVoiceFile(input, projectId)),
        }}
      />
      <GeneratorOutcome outcome={outcome} />
      {result ? (
        <div className="generator-result">
          <audio src={result.url} controls preload="metadata" aria-label={t("Generated voice")} />
          <AttachButton label="voice" onClick={() => onAttach("voice", choiceOf(result, "speech"))} />
        </div>
      ) : null}
    </Generator>
  );
}

function ImageGenerator({
  configured,
  onAttach,
  projectId,
}: {
  configured: boolean;
  onAttach: GeneratorsProps["onAttach"];
  projectId?: string;
}) {
  const { t } = useT();
  const [prompt, setPrompt] = useState("");
  const { busy, result, outcome, run } = useGenerator<GeneratedFile>("Image");
  return (
    <Generator title={t("Image")} icon="image" testId="generator-image">
      {configured ? null : (
        <p className="muted">
          {t(
            "No image model is configured (AI_IMAGE_PROVIDER with AI_IMAGE_BASE_URL, or AI_BASE_URL with AI_IMAGE_MODEL), so prompts cannot become images here yet. The Drawing Pad turns your sketches into images offline, and they can be attached above.",
          )}
        </p>
      )}
      <PromptForm
        label={t("Describe the image")}
        value={prompt}
        onChange={setPrompt}
        busy={busy}
        busyLabel={t("Generating...")}
        action={{
          label: t("Generate Image"),
          run: () => void run(prompt, (input) => generateImageFile(input, projectId)),
        }}
      />
      <GeneratorOutcome outcome={outcome} />
      {result ? (
        <div className="generator-result">
          <img className="generator-image" src={result.url} alt={t("Generated: {{prompt}}", { prompt })} />
          <AttachButton label="image" onClick={() => onAttach("image", choiceOf(result, "image"))} />
        </div>
      ) : null}
    </Generator>
  );
}

/** A video job is followed every second until it ends (the server ends jobs that run too long). */
const VIDEO_FOLLOW_MAX_MS = 20 * 60_000;

function VideoGenerator({ onAttach }: { onAttach: GeneratorsProps["onAttach"] }) {
  const { t, language } = useT();
  const [prompt, setPrompt] = useState("");
  const [progress, setProgress] = useState<{ status: string; progress: number } | null>(null);
  const { busy, result, outcome, run, alive } = useGenerator<GeneratedFile>("Video");

  const generate = async (text: string): Promise<GeneratedFile> => {
    const id = await startVideoGeneration(text);
    const started = Date.now();
    setProgress({ status: "starting", progress: 0 });
    try {
      while (alive.current && Date.now() - started < VIDEO_FOLLOW_MAX_MS) {
        const job = await videoStatus(id);
        setProgress({ status: job.status, progress: job.progress });
        if (isFinished(job.status)) {
          if (job.status === "completed" && job.url && job.media_id) {
            return {
              url: job.url,
              media_id: job.media_id,
              filename: t("AI video: {{prompt}}", { prompt: text.slice(0, 60) }),
            };
          }
          throw new Error(videoStatusText(job.status));
        }
        await new Promise((resolve) => setTimeout(resolve, VIDEO_POLL_MS));
      }
      throw new Error("The video took too long");
    } finally {
      if (alive.current) setProgress(null);
    }
  };

  return (
    <Generator title={t("Video")} icon="clapperboard" testId="generator-video">
      <PromptForm
        label={t("Describe the video")}
        value={prompt}
        onChange={setPrompt}
        busy={busy}
        busyLabel={t("Generating...")}
        rows={2}
        action={{ label: t("Generate Video"), run: () => void run(prompt, generate) }}
      />
      {progress ? (
        <div className="upload-progress" role="status" aria-live="polite">
          <progress max={100} value={Math.round(progress.progress * 100)} aria-label={t("Video progress")} />
          <span>
            {t(videoStatusText(progress.status))} {formatPercent(language, progress.progress)}
          </span>
        </div>
      ) : null}
      <GeneratorOutcome outcome={outcome} />
      {result ? (
        <div className="generator-result">
          <video
            className="generator-video"
            src={result.url}
            controls
            preload="metadata"
            aria-label={t("Generated video")}
          />
          <AttachButton label="video" onClick={() => onAttach("video", choiceOf(result, "aivideo"))} />
        </div>
      ) : null}
    </Generator>
  );
}

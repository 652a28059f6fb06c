import { DASHBOARD_TOOLS, type ToolId } from "~/common/tools";
import { msg } from "~/common/i18n/translate";

/**
 * What each of the dashboard's tools does (the 12 in docs/screens.md#screens-and-routes and the library), for the offline assistant: it answers
 * "how do I ..." questions from this guide. `keywords` are word stems a question may use (English words:
 * the offline assistant matches questions in English). The summaries are catalogue keys: the
 * assistant says them in the screen's language (`t(summary)`), as it says the tools' labels.
 */
export interface ToolGuideEntry {
  id: ToolId;
  label: string;
  path: string;
  summary: string;
  keywords: string[];
}

const GUIDE: Record<ToolId, { summary: string; keywords: string[] }> = {
  create: {
    summary: msg(
      "write a new text content item: a title (required) and an optional body. It then appears on your dashboard, where you can pin it with the star, open it to edit (edits autosave 3 seconds after you stop typing) or delete it.",
    ),
    keywords: [
      "create",
      "write",
      "note",
      "content",
      "text",
      "title",
      "body",
      "pin",
      "autosave",
      "edit",
      "article",
      "post",
    ],
  },
  assistant: {
    summary: msg(
      "ask a question and get a reply in the reply box. Pick a voice and press Speak Reply to hear it; with Auto-Speak on (the default) every reply is spoken.",
    ),
    keywords: ["assistant", "ask", "question", "chat", "reply", "speak", "voice", "talk"],
  },
  drawing: {
    summary: msg(
      "sketch with the mouse, a pen or a finger: choose a colour (yellow by default), a brush size from 1 to 30, switch between Draw and Erase (the eraser is 1.5 times wider), Clear, or Save Sketch as a PNG. Pick a style (realistic, cartoon, futuristic, painting or concept) and press Generate AI Image to turn the sketch into an image you can download.",
    ),
    keywords: [
      "draw",
      "drawing",
      "sketch",
      "paint",
      "brush",
      "erase",
      "eraser",
      "canvas",
      "pad",
      "style",
      "cartoon",
      "futuristic",
      "painting",
      "concept",
      "realistic",
    ],
  },
  music: {
    summary: msg(
      "play the three bundled tracks (8d Nirvana Stream, Deep Abstract Ambient, Epic Angry Uplifting), see what is now playing, and download them.",
    ),
    keywords: ["music", "song", "track", "play", "audio", "listen", "soundtrack"],
  },
  aivideo: {
    summary: msg(
      "describe a video in the prompt and press Generate Video. The status line follows the job (Queued..., Processing video..., Finalizing..., ✅ Completed!) with a progress bar, and the finished clip plays in the preview.",
    ),
    keywords: ["video", "generate", "clip", "movie", "animation", "animate", "render", "film"],
  },
  videos: {
    summary: msg("upload your videos, play them in a player, rename them (Enter saves) and delete them."),
    keywords: ["video", "upload", "hub", "library", "rename", "mov", "movie", "film"],
  },
  image: {
    summary: msg(
      "type a prompt and press Generate Image. With an image model configured you get a generated image; without one the studio builds a stock-photo search link (800x600) from your prompt.",
    ),
    keywords: ["image", "picture", "photo", "generate", "illustration", "art", "prompt"],
  },
  voices: {
    summary: msg(
      "upload MP3 voice clips, play them at 0.5x to 2x speed, loop or restart them, rename and delete them.",
    ),
    keywords: ["voice", "voices", "mp3", "clip", "upload", "speed", "loop", "audio", "recording"],
  },
  voicememo: {
    summary: msg(
      "record a voice memo with your microphone (Start/Stop Recording), play it back, delete it, or download it as an m4a file.",
    ),
    keywords: ["memo", "record", "recording", "microphone", "mic", "dictate", "m4a"],
  },
  projects: {
    summary: msg(
      "gather a title, a description and your voice, music, video and image files into projects, with generators for a script, a voice, an image and a video.",
    ),
    keywords: ["project", "projects", "organise", "organize", "bundle", "collection", "script"],
  },
  camera: {
    summary: msg(
      "use your camera with live filters (matrix, neon, bw, warm, cyber and more): tap the capture button for a photo, hold it for a video. Camera V2 adds a 1280x720 preview and a gallery of your captures.",
    ),
    keywords: ["camera", "photo", "selfie", "filter", "capture", "webcam", "picture", "gallery"],
  },
  capcut: {
    summary: msg(
      "see how the tools work together: draft with the assistant, sketch, render a video, and bundle it all in a project.",
    ),
    keywords: ["capcut", "ai x ai", "promo", "together", "workflow"],
  },
  library: {
    summary: msg(
      "find every file you uploaded, recorded or generated in one place: filter by kind, search by name or prompt, sort by date or size, see how generated files were made, rename, delete, download, attach to a project or open an image in the drawing pad. The meter shows how much of your storage you use.",
    ),
    keywords: ["library", "files", "storage", "quota", "find", "search", "provenance", "saved", "download", "attach"],
  },
};

export const TOOL_GUIDE: ToolGuideEntry[] = DASHBOARD_TOOLS.map((tool) => ({
  id: tool.id,
  label: tool.label,
  path: tool.path,
  ...GUIDE[tool.id],
}));

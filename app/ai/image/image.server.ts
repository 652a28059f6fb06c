/** The image capability: a prompt in, one image out. */
export interface GeneratedImage {
  bytes: Buffer;
  contentType: string;
  /** Without the dot: png, jpg, webp. */
  extension: string;
}

export interface ImageProvider {
  readonly id: string;
  readonly offline: boolean;
  generate(prompt: string, signal?: AbortSignal): Promise<GeneratedImage>;
}

export const PROMPT_MAX = 1000;

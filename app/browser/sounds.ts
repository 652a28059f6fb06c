/** Short interface sounds (docs/screens.md#constants-and-limits: success, fail, notify); playback failures (autoplay rules) are harmless. */
export type SoundName = "success" | "fail" | "notify";

export function playSound(name: SoundName) {
  const audio = new Audio(`/static/sounds/${name}.wav`);
  audio.volume = 0.6;
  audio.dataset.sound = name;
  void audio.play().catch(() => {});
  return audio;
}

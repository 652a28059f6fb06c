import { msg } from "~/common/i18n/translate";

/** docs/screens.md#music and docs/api.md#every-call: the three bundled tracks (made by scripts/assets/compose-music.mjs). Titles and notes are catalogue keys
 * (`t(demo.title)`): the titles are the tracks' own names, kept as they are in every language. */
export const MUSIC_DEMOS = [
  {
    id: "demo1",
    title: msg("8d Nirvana Stream"),
    src: "/static/music-demos/demo1.mp3",
    note: msg("Lo-fi chords circling your head (8D, best with headphones)"),
  },
  {
    id: "demo2",
    title: msg("Deep Abstract Ambient"),
    src: "/static/music-demos/demo2.mp3",
    note: msg("Slow drones, distant bells"),
  },
  {
    id: "demo3",
    title: msg("Epic Angry Uplifting"),
    src: "/static/music-demos/demo3.mp3",
    note: msg("Driving drums, heroic brass, a lift at the end"),
  },
] as const;

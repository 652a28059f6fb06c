/** docs/screens.md#music and docs/api.md#every-call: the three bundled tracks (made by scripts/assets/compose-music.mjs). */
export const MUSIC_DEMOS = [
  {
    id: "demo1",
    title: "8d Nirvana Stream",
    src: "/static/music-demos/demo1.mp3",
    note: "Lo-fi chords circling your head (8D, best with headphones)",
  },
  {
    id: "demo2",
    title: "Deep Abstract Ambient",
    src: "/static/music-demos/demo2.mp3",
    note: "Slow drones, distant bells",
  },
  {
    id: "demo3",
    title: "Epic Angry Uplifting",
    src: "/static/music-demos/demo3.mp3",
    note: "Driving drums, heroic brass, a lift at the end",
  },
] as const;

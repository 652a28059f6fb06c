import { Readable } from "node:stream";
import { beforeEach, describe, expect, it } from "vitest";
import { deleteMedia } from "~/models/media/media.server";
import { storeMedia } from "~/models/media/media-commit.server";
import {
  createProject,
  deleteProject,
  getProject,
  listProjects,
  projectMediaChoices,
  PROJECT_MEDIA_REFUSED,
  setProjectSlot,
  updateProject,
} from "~/models/projects/project.server";
import { projectCreateSchema } from "~/models/projects/project-input.server";
import { mp3Frames, PNG_BYTES, webmBytes } from "../support/media";
import { newUserId } from "../support/user-rows";

let alice: string;
let bob: string;
beforeEach(async () => {
  alice = await newUserId();
  bob = await newUserId();
});

describe("project validation", () => {
  it("requires a trimmed title of at most 200 characters and bounds the description at 5,000", () => {
    expect(projectCreateSchema.parse({ title: "  Film  " })).toEqual({ title: "Film" });
    expect(projectCreateSchema.parse({ title: "Film", description: null }).description).toBe("");
    expect(projectCreateSchema.parse({ title: "Film", description: "a\r\nb" }).description).toBe("a\nb");
    expect(projectCreateSchema.safeParse({ title: "   " }).error?.issues[0].message).toBe("Title required");
    expect(projectCreateSchema.safeParse({}).error?.issues[0].message).toBe("Title required");
    expect(projectCreateSchema.safeParse({ title: "x".repeat(201) }).success).toBe(false);
    expect(projectCreateSchema.safeParse({ title: "x".repeat(200) }).success).toBe(true);
    expect(projectCreateSchema.safeParse({ title: "x", description: "d".repeat(5001) }).error?.issues[0].message).toBe(
      "Description must be at most 5,000 characters",
    );
    expect(projectCreateSchema.safeParse({ title: "x", music_file: "demo4.mp3" }).success).toBe(false);
    expect(projectCreateSchema.parse({ title: "x", music_file: "demo2.mp3" }).music_file).toBe("demo2");
    expect(projectCreateSchema.parse({ title: "x", music_file: "demo2" }).music_file).toBe("demo2");
    expect(projectCreateSchema.parse({ title: "x", music_file: "" }).music_file).toBeNull();
    expect(projectCreateSchema.parse({ title: "x", voice_file: "" }).voice_file).toBeNull();
  });
});

describe("projects", () => {
  it("creates, lists most recently changed first, updates and deletes, each scoped to its owner", async () => {
    const first = await createProject(alice, { title: "First" });
    const second = await createProject(alice, { title: "Second", description: "Two" });
    expect(first).toMatchObject({
      title: "First",
      description: "",
      voice_file: null,
      music_file: null,
      video_file: null,
      image_file: null,
    });
    expect((await listProjects(alice)).map((project) => project.title)).toEqual(["Second", "First"]);
    expect(await listProjects(bob)).toEqual([]);

    const updated = await updateProject(alice, first.id, { title: "First, renamed" });
    expect(updated).toMatchObject({ title: "First, renamed", description: "" });
    expect((await listProjects(alice)).map((project) => project.title)).toEqual(["First, renamed", "Second"]);
    // A left-out description keeps its value.
    expect((await updateProject(alice, second.id, { title: "Second" }))?.description).toBe("Two");

    expect(await getProject(bob, first.id)).toBeUndefined();
    expect(await updateProject(bob, first.id, { title: "Stolen" })).toBeUndefined();
    expect(await deleteProject(bob, first.id)).toBe(false);
    expect((await getProject(alice, first.id))?.title).toBe("First, renamed");
    expect(await deleteProject(alice, first.id)).toBe(true);
    expect(await getProject(alice, first.id)).toBeUndefined();
  });

  it("attaches the owner's files by kind and a bundled track; reports their presence", async () => {
    const voice = await storeMedia(alice, "voice", Readable.from([mp3Frames()]), "take");
    const image = await storeMedia(alice, "image", Readable.from([PNG_BYTES]), "sketch");
    const clip = await storeMedia(alice, "aivideo", Readable.from([webmBytes()]), "clip");
    const project = await createProject(alice, { title: "Media", voice_file: voice.id, music_file: "demo3" });
    expect(project.voice_file).toBe("take.mp3");
    expect(project.music_file).toBe("demo3.mp3");
    expect(project.media.music).toEqual({
      id: "demo3",
      name: "Epic Angry Uplifting",
      kind: "music",
      url: "/static/music-demos/demo3.mp3",
    });
    expect(project.media.voice).toEqual({ id: voice.id, name: "take.mp3", kind: "voice", url: `/media/${voice.id}` });

    const withImage = await setProjectSlot(alice, project.id, "image", image.id);
    expect(withImage?.image_file).toBe("sketch.png");
    const withVideo = await setProjectSlot(alice, project.id, "video", clip.id);
    expect(withVideo?.video_file).toBe("clip.webm");
    const noMusic = await setProjectSlot(alice, project.id, "music", null);
    expect(noMusic?.music_file).toBeNull();
    expect(noMusic?.voice_file).toBe("take.mp3");

    // A file of the wrong kind for the slot, or another user's file, is refused.
    await expect(setProjectSlot(alice, project.id, "voice", image.id)).rejects.toMatchObject({
      status: 422,
      code: PROJECT_MEDIA_REFUSED,
    });
    const bobsVoice = await storeMedia(bob, "voice", Readable.from([mp3Frames()]), "bob");
    await expect(setProjectSlot(alice, project.id, "voice", bobsVoice.id)).rejects.toMatchObject({
      status: 422,
      code: PROJECT_MEDIA_REFUSED,
    });
    await expect(createProject(alice, { title: "x", image_file: bobsVoice.id })).rejects.toMatchObject({
      status: 422,
      code: PROJECT_MEDIA_REFUSED,
    });
    await expect(createProject(alice, { title: "x", voice_file: "bob.mp3" })).rejects.toMatchObject({
      status: 422,
      code: PROJECT_MEDIA_REFUSED,
    });
    await expect(setProjectSlot(alice, project.id, "music", "demo9")).rejects.toMatchObject({
      status: 422,
      code: PROJECT_MEDIA_REFUSED,
    });
    expect((await getProject(alice, project.id))?.voice_file).toBe("take.mp3");
  });

  it("deleting a library file detaches it from every project", async () => {
    const voice = await storeMedia(alice, "voice", Readable.from([mp3Frames()]), "narration");
    // By id, and by the name the voice library lists.
    const one = await createProject(alice, { title: "One", voice_file: voice.id });
    const two = await createProject(alice, { title: "Two", voice_file: "narration.mp3", music_file: "demo1" });
    expect(two.voice_file).toBe("narration.mp3");
    // A name sent in another Unicode form is the same name.
    const café = await storeMedia(alice, "voice", Readable.from([mp3Frames()]), "café");
    const three = await createProject(alice, { title: "Three", voice_file: "cafe\u0301.mp3" });
    expect(three.media.voice?.id).toBe(café.id);
    expect(await deleteMedia(alice, "voice", "narration.mp3")).toBe(true);
    expect((await getProject(alice, one.id))?.voice_file).toBeNull();
    const after = await getProject(alice, two.id);
    expect(after?.voice_file).toBeNull();
    expect(after?.music_file).toBe("demo1.mp3");
  });

  it("offers the owner's files per slot: voice clips and speech, videos and AI videos, images, the three tracks", async () => {
    await storeMedia(alice, "voice", Readable.from([mp3Frames()]), "clip");
    await storeMedia(alice, "image", Readable.from([PNG_BYTES]), "pic");
    await storeMedia(bob, "voice", Readable.from([mp3Frames()]), "bobs");
    const choices = await projectMediaChoices(alice);
    expect(choices.voice.map((choice) => choice.name)).toEqual(["clip.mp3"]);
    expect(choices.image.map((choice) => choice.name)).toEqual(["pic.png"]);
    expect(choices.video).toEqual([]);
    expect(choices.music.map((choice) => choice.id)).toEqual(["demo1", "demo2", "demo3"]);
  });
});

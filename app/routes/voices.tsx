import { requireUser } from "~/auth/auth.server";
import { fileFailureFallback } from "~/components/media/file-actions";
import { VoiceList } from "~/components/media/voice-list";
import { fileScreenAction, fileScreenLoader } from "~/services/media/file-screen-action.server";
import { VOICE_FILES } from "~/common/media/file-screen-kinds";
import libraryStylesheet from "~/styles/library.css?url";
import type { Route } from "./+types/voices";

export const meta: Route.MetaFunction = () => [{ title: "Voices · Creative AI Studio" }];

/** The storage meter's look (it lives with the library's). */
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: libraryStylesheet }];

export const loader = ({ request, context }: Route.LoaderArgs) =>
  fileScreenLoader(VOICE_FILES, requireUser(context, request).id, request);

/** Upload (a plain form), rename and delete: the file screens' one action. */
export const action = ({ request, context }: Route.ActionArgs) =>
  fileScreenAction(VOICE_FILES, requireUser(context, request).id, request);

/** With JavaScript: a rename or delete whose request fails says its failure text. */
export const clientAction = ({ request, serverAction }: Route.ClientActionArgs) =>
  fileFailureFallback(VOICE_FILES, request, serverAction);

export default function Voices({ loaderData, actionData }: Route.ComponentProps) {
  return <VoiceList data={loaderData} actionData={actionData} />;
}

import { fileFailureFallback } from "~/components/file-actions";
import { VOICE_FILES, VoiceList } from "~/components/voice-list";
import libraryStylesheet from "~/styles/library.css?url";
import { fileScreenAction, fileScreenLoader } from "./file-screens.server";
import type { Route } from "./+types/voices";

export const meta: Route.MetaFunction = () => [{ title: "Voices · Creative AI Studio" }];

/** The storage meter's look (it lives with the library's). */
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: libraryStylesheet }];

export const loader = (args: Route.LoaderArgs) => fileScreenLoader(VOICE_FILES, args);

/** Upload (a plain form), rename and delete: the file screens' one action. */
export const action = (args: Route.ActionArgs) => fileScreenAction(VOICE_FILES, args);

/** With JavaScript: a rename or delete whose request fails says its failure text. */
export const clientAction = ({ request, serverAction }: Route.ClientActionArgs) => fileFailureFallback(VOICE_FILES, request, serverAction);

export default function Voices({ loaderData, actionData }: Route.ComponentProps) {
  return <VoiceList data={loaderData} actionData={actionData} />;
}

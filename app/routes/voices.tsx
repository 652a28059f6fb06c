import { requireUser } from "~/auth/auth.server";
import { screenTranslator } from "~/auth/screen-language.server";
import { useT } from "~/components/ui/i18n";
import { fileFailureFallback } from "~/components/media/file-actions";
import { VoiceList } from "~/components/media/voice-list";
import { fileScreenAction, fileScreenLoader } from "~/services/media/file-screen-action.server";
import { VOICE_FILES } from "~/common/media/file-screen-kinds";
import libraryStylesheet from "~/styles/library.css?url";
import type { Route } from "./+types/voices";

/** The storage meter's look (it lives with the library's). */
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: libraryStylesheet }];

export const loader = ({ request, context }: Route.LoaderArgs) =>
  fileScreenLoader(VOICE_FILES, requireUser(context, request).id, request);

/** Upload (a plain form), rename and delete: the file screens' one action. */
export const action = async ({ request, context }: Route.ActionArgs) =>
  fileScreenAction(
    VOICE_FILES,
    requireUser(context, request).id,
    request,
    (await screenTranslator(context, request)).t,
  );

/** With JavaScript: a rename or delete whose request fails says its failure text. */
export const clientAction = ({ request, serverAction }: Route.ClientActionArgs) =>
  fileFailureFallback(VOICE_FILES, request, serverAction);

export default function Voices({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  return (
    <>
      <title>{t("Voices · Creative AI Studio")}</title>
      <VoiceList data={loaderData} actionData={actionData} />
    </>
  );
}

import { Fragment } from "react";
import { Link } from "react-router";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";

/**
 * A whole translated sentence with links in it: the sentence says where each goes (`{{assistant}}`),
 * so every language keeps its own word order.
 */
function WithLinks({ text, links }: { text: string; links: Record<string, React.ReactNode> }) {
  const parts = text.split(/\{\{(\w+)\}\}/);
  return parts.map((part, index) =>
    index % 2 === 1 ? <Fragment key={index}>{links[part] ?? part}</Fragment> : part || null,
  );
}

/** docs/screens.md#screens-and-routes: the AI x AI promo page, with a way back to the dashboard; each tool it names is a link to it. */
export default function AiXAi() {
  const { t } = useT();
  return (
    <main className="page page-narrow promo">
      <title>{t("AI x AI · Creative AI Studio")}</title>
      <h1>
        <Icon name="sparkles" /> {t("AI x AI")}
      </h1>
      <p className="promo-lead">{t("Your ideas, amplified twice: one AI writes, another brings it to life.")}</p>
      <ul className="promo-points">
        <li>
          <Icon name="bot" />{" "}
          <WithLinks
            text={t("Draft a script with the {{assistant}}, then hear it spoken back.")}
            links={{ assistant: <Link to="/assistant">{t("AI Assistant")}</Link> }}
          />
        </li>
        <li>
          <Icon name="palette" />{" "}
          <WithLinks
            text={t("Sketch a scene on the {{drawing}} and turn it into an image in your style.")}
            links={{ drawing: <Link to="/drawing">{t("Drawing Pad")}</Link> }}
          />
        </li>
        <li>
          <Icon name="clapperboard" />{" "}
          <WithLinks
            text={t("Describe a shot and follow the {{video}} generator as it renders.")}
            links={{ video: <Link to="/aivideo">{t("AI Video")}</Link> }}
          />
        </li>
        <li>
          <Icon name="folder-open" />{" "}
          <WithLinks
            text={t("Bundle {{voices}}, {{music}}, {{videos}} and {{images}} into a {{project}}.")}
            links={{
              voices: <Link to="/voices">{t("voices")}</Link>,
              music: <Link to="/music">{t("music")}</Link>,
              videos: <Link to="/videos">{t("video")}</Link>,
              images: <Link to="/image">{t("images")}</Link>,
              project: <Link to="/projects">{t("Project")}</Link>,
            }}
          />
        </li>
      </ul>
      <Link className="button button-primary" to="/dashboard">
        <Icon name="arrow-left" />
        {t("Back to Dashboard")}
      </Link>
    </main>
  );
}

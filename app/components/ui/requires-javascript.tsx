import { useT } from "~/components/ui/i18n";
/**
 * For screens that only work in the browser (camera, microphone): without JavaScript the page says
 * so plainly instead of showing controls that cannot work. With JavaScript the screen renders its
 * controls once hydrated, and this message is never shown. `feature`: an English catalogue key (msg())
 * or the caller's t().
 */
export function RequiresJavaScript({ feature }: { feature: string }) {
  const { t } = useT();
  return (
    <noscript>
      <p className="message message-error requires-javascript">
        {t(
          "{{feature}} runs in your browser and needs JavaScript. Turn JavaScript on and reload this page to use it.",
          {
            feature: t(feature),
          },
        )}
      </p>
    </noscript>
  );
}
